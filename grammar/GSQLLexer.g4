// GSQL lexer: one vocabulary for schema DDL, loading jobs, queries and shell commands.
// Keywords and built-in type names are case-insensitive (caseInsensitive below); identifiers
// keep their case, since GSQL names are case-sensitive. Comments are `//`, `#` and `/* */`.
lexer grammar GSQLLexer;

options { caseInsensitive = true; }

// Set by the parse driver, never by the lexer: an IF written after ELSE that continues an
// IF ... ELSE IF ... chain (sharing its END), as opposed to an IF nested in the ELSE branch
// (with an END of its own). Both are spelled `ELSE IF`; the driver tells them apart by
// counting ENDs, so the parser needs no unbounded lookahead.
tokens { CHAIN_IF }

// Keywords. Which of them may also serve as names is decided by the parser's `identifier`.
// Query language (reserved words of GSQL)
ACCUM             : 'ACCUM';
AND               : 'AND';
ANY               : 'ANY';
API               : 'API';
AS                : 'AS';
ASC               : 'ASC';
AVG               : 'AVG';
BAG               : 'BAG';
BETWEEN           : 'BETWEEN';
BOOL              : 'BOOL';
BOTH              : 'BOTH';
BREAK             : 'BREAK';
BY                : 'BY';
CASE              : 'CASE';
COALESCE          : 'COALESCE';
CONTINUE          : 'CONTINUE';
COUNT             : 'COUNT';
CREATE            : 'CREATE';
DATETIME          : 'DATETIME';
DELETE            : 'DELETE';
DESC              : 'DESC';
DISTINCT          : 'DISTINCT';
DISTRIBUTED       : 'DISTRIBUTED';
DO                : 'DO';
DOUBLE            : 'DOUBLE';
EDGE              : 'EDGE';
ELSE              : 'ELSE';
END               : 'END';
ESCAPE            : 'ESCAPE';
EXCEPTION         : 'EXCEPTION';
FALSE             : 'FALSE';
FILE              : 'FILE';
FLOAT             : 'FLOAT';
FOR               : 'FOR';
FOREACH           : 'FOREACH';
FROM              : 'FROM';
GRAPH             : 'GRAPH';
GROUP             : 'GROUP';
HAVING            : 'HAVING';
IF                : 'IF';
IN                : 'IN';
INSERT            : 'INSERT';
INT               : 'INT';
INTERPRET         : 'INTERPRET';
INTERSECT         : 'INTERSECT';
INTERVAL          : 'INTERVAL';
INTO              : 'INTO';
IS                : 'IS';
ISEMPTY           : 'ISEMPTY';
JSONARRAY         : 'JSONARRAY';
JSONOBJECT        : 'JSONOBJECT';
LEADING           : 'LEADING';
LIKE              : 'LIKE';
LIMIT             : 'LIMIT';
LIST              : 'LIST';
MAP               : 'MAP';
MAX               : 'MAX';
MIN               : 'MIN';
MINUS             : 'MINUS';
NOT               : 'NOT';
NULL              : 'NULL';
OFFSET            : 'OFFSET';
OR                : 'OR';
ORDER             : 'ORDER';
PER               : 'PER';
PINNED            : 'PINNED';
PRIMARY_ID        : 'PRIMARY_ID';
PRINT             : 'PRINT';
QUERY             : 'QUERY';
RAISE             : 'RAISE';
RANGE             : 'RANGE';
REPLACE           : 'REPLACE';
RETURN            : 'RETURN';
RETURNS           : 'RETURNS';
RUN               : 'RUN';
SAMPLE            : 'SAMPLE';
SELECT            : 'SELECT';
SET               : 'SET';
STATIC            : 'STATIC';
STRING            : 'STRING';
SUM               : 'SUM';
SYNTAX            : 'SYNTAX';
TARGET            : 'TARGET';
THEN              : 'THEN';
TO                : 'TO';
TO_CSV            : 'TO_CSV';
TRAILING          : 'TRAILING';
TRIM              : 'TRIM';
TRUE              : 'TRUE';
TRY               : 'TRY';
TUPLE             : 'TUPLE';
TYPEDEF           : 'TYPEDEF';
UINT              : 'UINT';
UNION             : 'UNION';
UPDATE            : 'UPDATE';
VALUES            : 'VALUES';
VERTEX            : 'VERTEX';
WHEN              : 'WHEN';
WHERE             : 'WHERE';
WHILE             : 'WHILE';
WITH              : 'WITH';
GSQL_INT_MAX      : 'GSQL_INT_MAX';
GSQL_INT_MIN      : 'GSQL_INT_MIN';
GSQL_UINT_MAX     : 'GSQL_UINT_MAX';

// Accumulator types
SUMACCUM          : 'SumAccum';
MINACCUM          : 'MinAccum';
MAXACCUM          : 'MaxAccum';
AVGACCUM          : 'AvgAccum';
ANDACCUM          : 'AndAccum';
ORACCUM           : 'OrAccum';
BITWISEANDACCUM   : 'BitwiseAndAccum';
BITWISEORACCUM    : 'BitwiseOrAccum';
LISTACCUM         : 'ListAccum';
SETACCUM          : 'SetAccum';
BAGACCUM          : 'BagAccum';
MAPACCUM          : 'MapAccum';
ARRAYACCUM        : 'ArrayAccum';
HEAPACCUM         : 'HeapAccum';
GROUPBYACCUM      : 'GroupByAccum';

// Schema DDL, schema-change and loading jobs
DIRECTED          : 'DIRECTED';
UNDIRECTED        : 'UNDIRECTED';
PRIMARY           : 'PRIMARY';
KEY               : 'KEY';
DEFAULT           : 'DEFAULT';
DISCRIMINATOR     : 'DISCRIMINATOR';
COMPRESS          : 'COMPRESS';
FIXED_BINARY      : 'FIXED_BINARY';
ADMIN             : 'ADMIN';
CASCADE           : 'CASCADE';
ALL               : 'ALL';
GLOBAL            : 'GLOBAL';
USE               : 'USE';
DROP              : 'DROP';
SCHEMA_CHANGE     : 'SCHEMA_CHANGE';
JOB               : 'JOB';
ADD               : 'ADD';
ALTER             : 'ALTER';
ATTRIBUTE         : 'ATTRIBUTE';
INDEX             : 'INDEX';
ON                : 'ON';
PAIR              : 'PAIR';
LOADING           : 'LOADING';
DEFINE            : 'DEFINE';
FILENAME          : 'FILENAME';
HEADER            : 'HEADER';
INPUT_LINE_FILTER : 'INPUT_LINE_FILTER';
LOAD              : 'LOAD';
USING             : 'USING';
TEMP_TABLE        : 'TEMP_TABLE';
NUMERIC           : 'NUMERIC';
EMPTY             : 'EMPTY';

// Shell commands
INSTALL           : 'INSTALL';
SHOW              : 'SHOW';
LS                : 'LS';
USER              : 'USER';
SECRET            : 'SECRET';
ROLE              : 'ROLE';
PRIVILEGE         : 'PRIVILEGE';
ACL               : 'ACL';
GRANT             : 'GRANT';
REVOKE            : 'REVOKE';
PASSWORD          : 'PASSWORD';
CLEAR             : 'CLEAR';
STORE             : 'STORE';
BEGIN             : 'BEGIN';
ABORT             : 'ABORT';
RESUME            : 'RESUME';
STATUS            : 'STATUS';
HELP              : 'HELP';
PACKAGE           : 'PACKAGE';
CHANGE            : 'CHANGE';
OWNER             : 'OWNER';
OF                : 'OF';
SECURED           : 'SECURED';
// `POST-ACCUM` is written with a hyphen; the reserved-word list spells it POST_ACCUM.
POST_ACCUM        : 'POST-ACCUM' | 'POST_ACCUM';

// Accumulator names carry their sigil: `@@global`, `@vertexAttached`.
GLOBAL_ACCUM      : '@@' NAME;
LOCAL_ACCUM       : '@' NAME;

// Numbers. A real needs digits on one side of the point; `1..3` (repetition bounds) must
// stay INT DOTDOT INT, so `1.` is a real only when another `.` does not follow.
INT_LIT           : DIGIT+;
REAL_LIT          : DIGIT+ '.' DIGIT+ EXPONENT?
                  | DIGIT+ '.' {this.inputStream.LA(1) !== 46}? EXPONENT?
                  | '.' DIGIT+ EXPONENT?
                  | DIGIT+ EXPONENT
                  ;
STRING_LIT        : '"' (ESCAPE_SEQ | ~["\\\r\n])* '"';
// A string with no closing quote on its line: the parse driver reports it and reads it as
// a string, so one missing quote does not turn the rest of the file into errors.
UNTERMINATED_STRING : '"' (ESCAPE_SEQ | ~["\\\r\n])*;

// Column references of loading jobs and file-reading functions: `$0`, `$"name"`, `$sys...`.
COLUMN_POS        : '$' DIGIT+;
COLUMN_NAME       : '$' '"' (ESCAPE_SEQ | ~["\\\r\n])* '"';
DOLLAR            : '$';

// `_` alone is the wildcard / default marker; `_x` is an ordinary name.
UNDERSCORE        : '_';
ID                : NAME;

// Operators and punctuation.
PLUS_EQ           : '+=';
EQEQ              : '==';
NEQ               : '!=';
LE                : '<=';
GE                : '>=';
SHL               : '<<';
// `>>` is deliberately not a token: nested type arguments end in `>>` (MapAccum<K, SumAccum<V>>).
// The parser reads a right shift as two adjacent `>`.
ARROW             : '->';
EQ                : '=';
LT                : '<';
GT                : '>';
PLUS              : '+';
DASH              : '-';
STAR              : '*';
SLASH             : '/';
PERCENT           : '%';
CARET             : '^';
AMP               : '&';
PIPE              : '|';
LPAREN            : '(';
RPAREN            : ')';
LBRACK            : '[';
RBRACK            : ']';
LBRACE            : '{';
RBRACE            : '}';
COMMA             : ',';
SEMI              : ';';
COLON             : ':';
DOTDOT            : '..';
DOT               : '.';
QUESTION          : '?';
PRIME             : '\'';

LINE_COMMENT      : ('//' | '#') ~[\r\n]* -> skip;
BLOCK_COMMENT     : '/*' .*? '*/' -> skip;
// A block comment that never closes: reported by the parse driver, then dropped.
UNTERMINATED_COMMENT : '/*' (~'*' | '*'+ ~[*/])* '*'* EOF -> channel(HIDDEN);
WS                : [ \t\r\n\f\u00A0\uFEFF]+ -> skip;

// Anything else: the parse driver reports it once per run of such characters and drops it.
UNKNOWN_CHAR      : . -> channel(HIDDEN);

fragment NAME       : [a-z_] [a-z0-9_]*;
fragment DIGIT      : [0-9];
fragment EXPONENT   : 'e' [+-]? DIGIT+;
fragment ESCAPE_SEQ : '\\' ~[\r\n];
