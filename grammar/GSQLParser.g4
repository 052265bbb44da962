// GSQL parser: a script of top-level statements (schema DDL, schema-change and loading jobs,
// queries, shell commands). Top-level statements need no terminator; statements inside
// query bodies and job bodies end with `;`; DML-level statements (ACCUM, POST-ACCUM,
// UPDATE ... SET) are separated by `,`.
//
// The grammar accepts a little more than GSQL where that keeps it unambiguous and fast; the
// AST builder then tells the cases apart and reports what does not fit (for example a
// statement `S (T) = ...` parses as an assignment to a call and becomes a vertex-set
// declaration, `LOG(...)` and `REDUCE(...)` parse as calls).
parser grammar GSQLParser;

options { tokenVocab = GSQLLexer; }

@members {
    /** Whether the next token starts right where the previous one ended (nothing between them). */
    protected nextIsAdjacent(): boolean {
        const previous = this.inputStream.LT(-1);
        const next = this.inputStream.LT(1);
        return previous !== null && next !== null && next.start === previous.stop + 1;
    }
}

script
    : topStatement* EOF
    ;

// A `;` after a command is accepted as an empty statement (real scripts end commands with one).
topStatement
    : topStatementBody
    | SEMI
    ;

topStatementBody
    : createQuery
    | interpretAnonymousQuery
    | createVertex
    | createEdge
    | createGraph
    | typedefTuple
    | createSchemaChangeJob
    | createLoadingJob
    | dropStatement
    | useStatement
    | runSchemaChangeJob
    | runLoadingJob
    | installQuery
    | runQuery
    | interpretQuery
    | showStatement
    | lsStatement
    | setStatement
    | createSecret
    | createUser
    | alterPassword
    | alterAclPassword
    | changeOwner
    | createRole
    | roleGrant
    | privilegeGrant
    | aclGrant
    | clearGraphStore
    | loadingJobControl
    | helpStatement
    | shellBlock
    ;

// ---------------------------------------------------------------------------------------
// Names

// Names: plain identifiers and the keywords GSQL does not reserve, so a vertex type may be
// called Show or User. Reserved words (SELECT, FROM, ...) are never names.
identifier
    : ID
    | LIST | MAP | UPDATE | FILE | PER | REPLACE | GROUP | BY | DISTINCT | INSERT
    | DIRECTED | UNDIRECTED | PRIMARY | KEY | DEFAULT | DISCRIMINATOR | COMPRESS | ADMIN
    | CASCADE | GLOBAL | SCHEMA_CHANGE | JOB | ADD | ATTRIBUTE | INDEX | PAIR | LOADING
    | DEFINE | FILENAME | HEADER | INPUT_LINE_FILTER | LOAD | USING | TEMP_TABLE | NUMERIC
    | EMPTY | USER | SECRET | ROLE | PRIVILEGE | ACL | PASSWORD | STORE | STATUS | PACKAGE | ALL
    | OWNER | OF | SECURED
    | SHOW | USE | DROP | ALTER | INSTALL | LS | GRANT | REVOKE | CLEAR | BEGIN | HELP | RESUME | ABORT | CHANGE
    ;

// Names that cannot start a top-level command (`identifier` without its last line, spelled
// out rather than nested so every name costs one parse-tree level): used where a command
// ends with an optional name (CREATE SECRET [alias]), so it never swallows the next command.
plainName
    : ID
    | LIST | MAP | UPDATE | FILE | PER | REPLACE | GROUP | BY | DISTINCT | INSERT
    | DIRECTED | UNDIRECTED | PRIMARY | KEY | DEFAULT | DISCRIMINATOR | COMPRESS | ADMIN
    | CASCADE | GLOBAL | SCHEMA_CHANGE | JOB | ADD | ATTRIBUTE | INDEX | PAIR | LOADING
    | DEFINE | FILENAME | HEADER | INPUT_LINE_FILTER | LOAD | USING | TEMP_TABLE | NUMERIC
    | EMPTY | USER | SECRET | ROLE | PRIVILEGE | ACL | PASSWORD | STORE | STATUS | PACKAGE | ALL
    | OWNER | OF | SECURED
    ;

// After `.` any word names a member: `.filter(...)`, `.set(...)`, `.type`, `.size()`.
memberName
    : identifier
    | ACCUM | AND | ANY | API | AS | ASC | AVG | BAG | BETWEEN | BOOL | BOTH | BREAK | CASE
    | COALESCE | CONTINUE | COUNT | CREATE | DATETIME | DELETE | DESC | DISTRIBUTED | DO
    | DOUBLE | EDGE | ELSE | END | ESCAPE | EXCEPTION | FALSE | FLOAT | FOR | FOREACH | FROM
    | GRAPH | HAVING | IF | IN | INT | INTERPRET | INTERSECT | INTERVAL | INTO | IS | ISEMPTY
    | JSONARRAY | JSONOBJECT | LEADING | LIKE | LIMIT | MAX | MIN | MINUS | NOT | NULL | OFFSET
    | OR | ORDER | PINNED | PRIMARY_ID | PRINT | QUERY | RAISE | RANGE | RETURN | RETURNS | RUN
    | SAMPLE | SELECT | SET | STATIC | STRING | SUM | SYNTAX | TARGET | THEN | TO | TO_CSV
    | TRAILING | TRIM | TRUE | TRY | TUPLE | TYPEDEF | UINT | UNION | VALUES | VERTEX | WHEN
    | WHERE | WHILE | WITH | ON | FIXED_BINARY
    ;

nameList
    : identifier (COMMA identifier)*
    ;

// `*` or ALL where a command accepts "every one" (ALL is also a name elsewhere, so commands
// list this alternative first).
allNames
    : STAR
    | ALL
    ;

// A `-flag` of a shell command, with the numeric argument some flags take (`-n 10,$`).
flag
    : DASH memberName flagValue?
    ;

flagValue
    : INT_LIT (COMMA (INT_LIT | DOLLAR))?
    | REAL_LIT
    ;

// A name or glob as written (`q`, `q*`, `*`, `Per?on`). Parts after the first must touch the
// previous one, so a glob never runs into the next statement.
globPattern
    : (plainName | STAR | QUESTION) ({this.nextIsAdjacent()}? (memberName | STAR | QUESTION | INT_LIT))*
    ;

// Free-form words joined without spaces: job ids (`g.j.file.m1.1592359900330`), secrets.
wordSequence
    : (plainName | INT_LIT | REAL_LIT | DOT | DASH)+
    ;

// ---------------------------------------------------------------------------------------
// Types

dataType
    : baseType
    | collectionType
    | tupleType
    | accumType
    | identifier
    ;

baseType
    : INT (LPAREN INT_LIT RPAREN)?
    | UINT (LPAREN INT_LIT RPAREN)?
    | FLOAT
    | DOUBLE
    | BOOL
    | STRING (LPAREN INT_LIT RPAREN)? (COMPRESS identifier?)?
    | DATETIME
    | VERTEX (LT identifier GT)?
    | EDGE (LT identifier GT)?
    | JSONOBJECT
    | JSONARRAY
    | FILE
    | FIXED_BINARY LPAREN INT_LIT RPAREN
    ;

collectionType
    : (SET | BAG | LIST | MAP) LT dataType (COMMA dataType)* GT
    ;

tupleType
    : TUPLE LT tupleField (COMMA tupleField)* GT
    ;

// Tuple fields are written `type name` or `name type`; their types are never tuple names,
// which keeps the two orders apart.
tupleField
    : tupleFieldType identifier?
    | identifier tupleFieldType
    ;

tupleFieldType
    : baseType
    | collectionType
    ;

// Accumulator types. Type arguments and heap options are checked per accumulator by the
// AST builder, which gives clearer messages than separate grammar rules would.
accumType
    : accumTypeName (LT accumTypeArg (COMMA accumTypeArg)* GT)? heapOptions?
    ;

accumTypeName
    : SUMACCUM | MINACCUM | MAXACCUM | AVGACCUM | ANDACCUM | ORACCUM | BITWISEANDACCUM
    | BITWISEORACCUM | LISTACCUM | SETACCUM | BAGACCUM | MAPACCUM | ARRAYACCUM | HEAPACCUM
    | GROUPBYACCUM
    ;

// A type (with a field name in GroupByAccum), or a bit width (BitwiseOrAccum<8>).
accumTypeArg
    : dataType identifier?
    | INT_LIT
    ;

// HeapAccum<T>(capacity, field [ASC|DESC], ...).
heapOptions
    : LPAREN heapArg (COMMA heapArg)* RPAREN
    ;

heapArg
    : arith (ASC | DESC)?
    ;

// ---------------------------------------------------------------------------------------
// Schema DDL

createVertex
    : CREATE VERTEX identifier LPAREN vertexElement (COMMA vertexElement)* RPAREN withOptions?
    ;

vertexElement
    : PRIMARY_ID identifier dataType                      # primaryIdElement
    | PRIMARY KEY LPAREN nameList RPAREN              # compositeKeyElement
    | attributeDef                                    # attributeElement
    ;

attributeDef
    : identifier dataType (DEFAULT defaultValue)? (PRIMARY KEY)?
    ;

defaultValue
    : DASH? (INT_LIT | REAL_LIT)
    | STRING_LIT
    | TRUE
    | FALSE
    ;

withOptions
    : WITH option (COMMA option)*
    ;

option
    : identifier EQ optionValue
    ;

optionValue
    : STRING_LIT
    | DASH? (INT_LIT | REAL_LIT)
    | TRUE
    | FALSE
    | identifier
    ;

createEdge
    : CREATE (DIRECTED | UNDIRECTED) EDGE identifier LPAREN edgePairs (COMMA edgeElement)* RPAREN withOptions?
    ;

edgePairs
    : edgePair (PIPE edgePair)*
    ;

edgePair
    : FROM endpointTypes COMMA TO endpointTypes
    ;

endpointTypes
    : STAR
    | identifier (PIPE identifier)*
    ;

edgeElement
    : DISCRIMINATOR LPAREN attributeDef (COMMA attributeDef)* RPAREN   # discriminatorElement
    | attributeDef                                                    # edgeAttributeElement
    ;

createGraph
    : CREATE GRAPH identifier LPAREN (STAR | nameList)? RPAREN (WITH ADMIN identifier)?
    ;

typedefTuple
    : TYPEDEF TUPLE LT tupleField (COMMA tupleField)* GT identifier
    ;

dropStatement
    : DROP (VERTEX | EDGE | TUPLE) (allNames | nameList)   # dropTypes
    | DROP GRAPH identifier CASCADE?                       # dropGraph
    | DROP (JOB | QUERY) (allNames | nameList)             # dropJobOrQuery
    | DROP (USER | ROLE) nameList                          # dropUserOrRole
    | DROP SECRET wordSequence                             # dropSecret
    | DROP ALL                                             # dropAll
    ;

useStatement
    : USE GRAPH identifier                                 # useGraph
    | USE GLOBAL                                           # useGlobal
    ;

// ---------------------------------------------------------------------------------------
// Schema-change jobs

createSchemaChangeJob
    : CREATE GLOBAL? SCHEMA_CHANGE JOB identifier (FOR GRAPH identifier)? LBRACE (schemaChangeStatement SEMI)* RBRACE
    ;

schemaChangeStatement
    : ADD VERTEX identifier LPAREN vertexElement (COMMA vertexElement)* RPAREN withOptions?                 # addVertex
    | ADD (DIRECTED | UNDIRECTED) EDGE identifier LPAREN edgePairs (COMMA edgeElement)* RPAREN withOptions?  # addEdge
    | ADD (VERTEX | EDGE) nameList TO GRAPH identifier                                                     # addToGraph
    | DROP (VERTEX | EDGE | TUPLE) nameList (FROM GRAPH identifier)?                                       # dropInJob
    | ALTER (VERTEX | EDGE) identifier ADD ATTRIBUTE LPAREN attributeDef (COMMA attributeDef)* RPAREN       # alterAddAttributes
    | ALTER (VERTEX | EDGE) identifier DROP ATTRIBUTE LPAREN nameList RPAREN                               # alterDropAttributes
    | ALTER EDGE identifier (ADD | DROP) PAIR LPAREN edgePairs RPAREN                                      # alterPairs
    | ALTER (VERTEX | EDGE) identifier ADD INDEX identifier ON LPAREN nameList RPAREN                       # alterAddIndex
    | ALTER (VERTEX | EDGE) identifier DROP INDEX identifier                                               # alterDropIndex
    ;

runSchemaChangeJob
    : RUN GLOBAL? SCHEMA_CHANGE JOB flag* identifier flag*
    ;

// ---------------------------------------------------------------------------------------
// Loading jobs

createLoadingJob
    : CREATE LOADING JOB identifier (FOR GRAPH identifier)? LBRACE (loadingStatement SEMI)* RBRACE
    ;

loadingStatement
    : DEFINE FILENAME identifier (EQ STRING_LIT)?                                           # defineFilename
    | DEFINE HEADER identifier EQ STRING_LIT (COMMA STRING_LIT)*                            # defineHeader
    | DEFINE INPUT_LINE_FILTER identifier EQ expr                                           # defineInputLineFilter
    | LOAD loadSource loadDestination (COMMA loadDestination)* usingClause?                 # load
    | DELETE (VERTEX | EDGE) (identifier | STAR) LPAREN loadDeleteKey (COMMA loadDeleteKey)* RPAREN
        FROM loadSource (WHERE expr)?                                                       # loadDelete
    ;

loadSource
    : identifier
    | STRING_LIT
    | TEMP_TABLE identifier
    ;

loadDestination
    : TO VERTEX identifier VALUES LPAREN loadValues RPAREN (WHERE expr)?                           # loadToVertex
    | TO EDGE identifier VALUES LPAREN loadValues RPAREN (WHERE expr)?                             # loadToEdge
    | TO TEMP_TABLE identifier LPAREN nameList RPAREN VALUES LPAREN loadValues RPAREN (WHERE expr)? # loadToTempTable
    ;

loadValues
    : typedValue (COMMA typedValue)*
    ;

// A value, optionally followed by a vertex type (`$0 Comment` picks an edge endpoint's type).
typedValue
    : expr identifier?
    ;

loadDeleteKey
    : PRIMARY_ID expr
    | (FROM | TO) typedValue
    | DISCRIMINATOR LPAREN args RPAREN
    ;

usingClause
    : USING option (COMMA option)*
    ;

runLoadingJob
    : RUN LOADING? JOB flag* identifier usingClause?
    ;

loadingJobControl
    : ABORT LOADING JOB (ALL | wordSequence)               # abortLoadingJob
    | RESUME LOADING JOB wordSequence                      # resumeLoadingJob
    ;

// ---------------------------------------------------------------------------------------
// Queries

createQuery
    : CREATE (OR REPLACE)? DISTRIBUTED? QUERY identifier LPAREN paramList? RPAREN queryHeaderClause* queryBody
    ;

interpretAnonymousQuery
    : INTERPRET QUERY LPAREN RPAREN queryHeaderClause* queryBody
    ;

paramList
    : param (COMMA param)*
    ;

param
    : dataType identifier (EQ expr)?
    ;

// The header clauses, in the documented order or any other.
queryHeaderClause
    : FOR GRAPH identifier                                 # forGraphClause
    | RETURNS LPAREN dataType RPAREN                           # returnsClause
    | API LPAREN STRING_LIT RPAREN                         # apiClause
    | SYNTAX (identifier | STRING_LIT)                     # syntaxClause
    ;

queryBody
    : LBRACE queryStatement* RBRACE
    ;

// Query-body statements, each ended by `;`.
queryStatement
    : TYPEDEF TUPLE LT tupleField (COMMA tupleField)* GT identifier SEMI             # typedefStatement
    | STATIC? accumType accumDeclVar (COMMA accumDeclVar)* SEMI                      # accumDeclStatement
    | FILE identifier LPAREN expr RPAREN SEMI                                        # fileDeclStatement
    | EXCEPTION identifier LPAREN expr RPAREN SEMI                                   # exceptionDeclStatement
    | declType varDeclItem (COMMA varDeclItem)* SEMI                                 # varDeclStatement
    | chain (assignOp (selectBlock | expr))? SEMI                                    # chainStatement
    | IF expr THEN queryStatement* (ELSE CHAIN_IF expr THEN queryStatement*)* (ELSE queryStatement*)? END SEMI  # ifStatement
    | CASE expr? (WHEN expr THEN queryStatement*)+ (ELSE queryStatement*)? END SEMI                # caseStatement
    | WHILE expr (LIMIT expr)? DO queryStatement* END SEMI                           # whileStatement
    | foreachHead queryStatement* END SEMI                                           # foreachStatement
    | BREAK SEMI                                                                     # breakStatement
    | CONTINUE SEMI                                                                  # continueStatement
    | UPDATE identifier fromClause SET dmlList (WHERE expr)? SEMI                    # updateStatement
    | insertStatement SEMI                                                           # insertQueryStatement
    | DELETE identifier fromClause (WHERE expr)? SEMI                                # deleteFromStatement
    | PRINT printItem (COMMA printItem)* (WHERE expr)? (TO_CSV expr)? SEMI           # printStatement
    | RETURN expr? SEMI                                                              # returnStatement
    | RAISE identifier (LPAREN args? RPAREN)? SEMI                                   # raiseStatement
    | TRY queryStatement* EXCEPTION exceptionHandler+ (ELSE queryStatement*)? END SEMI  # tryStatement
    | sqlSelectBlock SEMI                                                            # sqlSelectStatement
    | selectBlock SEMI                                                               # selectStatement
    ;

exceptionHandler
    : WHEN identifier THEN queryStatement*
    ;

accumDeclVar
    : (GLOBAL_ACCUM | LOCAL_ACCUM) arrayDim* (EQ expr)?
    ;

arrayDim
    : LBRACK expr? RBRACK
    ;

// Types a variable may be declared with (accumulators have their own statement).
declType
    : baseType
    | collectionType
    | tupleType
    | identifier
    ;

varDeclItem
    : identifier (EQ expr)?
    ;

assignOp
    : EQ
    | PLUS_EQ
    ;

// A name, accumulator or call followed by member accesses, calls and indexes: the target of
// an assignment (`v.@score`, `@@a[i]`, `x`) or a call statement (`@@l.clear()`, `f.println(x)`).
chain
    : chainHead chainPart*
    ;

chainHead
    : identifier (LPAREN args? RPAREN)?
    | GLOBAL_ACCUM
    | LOCAL_ACCUM
    ;

chainPart
    : DOT memberName (LPAREN args? RPAREN)?
    | DOT LOCAL_ACCUM PRIME?
    | LBRACK expr RBRACK
    ;

foreachHead
    : FOREACH (identifier | LPAREN identifier (COMMA identifier)* RPAREN) (IN | COLON) expr DO
    ;

insertStatement
    : INSERT INTO (VERTEX | EDGE)? identifier (LPAREN insertColumn (COMMA insertColumn)* RPAREN)?
        VALUES LPAREN typedValue (COMMA typedValue)* RPAREN
    ;

insertColumn
    : PRIMARY_ID
    | FROM
    | TO
    | identifier
    ;

printItem
    : identifier LBRACK printItem (COMMA printItem)* RBRACK (AS identifier)?   # vertexSetProjection
    | expr (AS identifier)?                                                     # printExpr
    ;

// DML-level statements: inside ACCUM, POST-ACCUM and UPDATE ... SET, separated by `,`.
dmlList
    : dmlStatement (COMMA dmlStatement)*
    ;

dmlStatement
    : declType identifier EQ expr                                                # dmlVarDecl
    | chain (assignOp expr)?                                                     # dmlChain
    | IF expr THEN dmlList (ELSE CHAIN_IF expr THEN dmlList)* (ELSE dmlList)? END  # dmlIf
    | CASE expr? (WHEN expr THEN dmlList)+ (ELSE dmlList)? END                   # dmlCase
    | WHILE expr (LIMIT expr)? DO dmlList END                                    # dmlWhile
    | foreachHead dmlList END                                                    # dmlForeach
    | BREAK                                                                      # dmlBreak
    | CONTINUE                                                                   # dmlContinue
    | insertStatement                                                            # dmlInsert
    | DELETE LPAREN expr RPAREN                                                  # dmlDelete
    // Query-body-only statements, parsed here so the binder can say where they belong.
    | PRINT printItem (COMMA printItem)* (WHERE expr)? (TO_CSV expr)?            # dmlPrint
    | RAISE identifier (LPAREN args? RPAREN)?                                    # dmlRaise
    | RETURN expr?                                                               # dmlReturn
    ;

// ---------------------------------------------------------------------------------------
// SELECT and patterns. A SELECT block is a statement's value (`R = SELECT ...`), never part of
// a larger expression: as an operand, its last clause could also take the operators that
// follow (`... HAVING a == b` vs `(SELECT ...) == b`).

selectBlock
    : SELECT DISTINCT? identifier fromClause sampleClause? (WHERE expr)? accumClause?
        postAccumClause* (HAVING expr)? orderClause? limitClause?
    ;

// The SQL-like SELECT (SYNTAX V2): a table of columns, optionally grouped and aggregated,
// stored under the name after INTO. GROUP and BY are not reserved, so they may also be names.
sqlSelectBlock
    : SELECT DISTINCT? sqlColumn (COMMA sqlColumn)* INTO identifier fromClause (WHERE expr)?
        (GROUP BY args)? (HAVING expr)? orderClause? limitClause?
    ;

sqlColumn
    : expr (AS identifier)?
    ;

fromClause
    : FROM pattern (COMMA pattern)*
    ;

pattern
    : patternVertex (patternEdge patternVertex)*
    ;

patternVertex
    : patternTypes (COLON identifier)?
    | COLON identifier
    ;

patternTypes
    : patternName
    | LPAREN patternName (PIPE patternName)* RPAREN
    ;

patternName
    : identifier
    | GLOBAL_ACCUM
    | UNDERSCORE
    | ANY
    ;

// `-( ... )-` or `-( ... )->` (V1 arrowhead outside the parentheses).
patternEdge
    : DASH LPAREN (edgeSegment (DOT edgeSegment)*)? (COLON identifier)? RPAREN (DASH | ARROW)
    ;

edgeSegment
    : edgeAtom (PIPE edgeAtom)* repeat?
    | LPAREN edgeAtom (PIPE edgeAtom)* RPAREN repeat?
    ;

// `E`, `E>`, `<E` (V2 direction marks inside the parentheses).
edgeAtom
    : LT? patternName GT?
    ;

// Kleene repetition: `*`, `*2`, `*1..3`, `*..3`, `*2..`.
repeat
    : STAR (INT_LIT? DOTDOT INT_LIT? | INT_LIT)?
    ;

sampleClause
    : SAMPLE arith PERCENT? (EDGE | TARGET) PINNED? (WHEN expr)?
    ;

accumClause
    : (PER LPAREN nameList RPAREN)? ACCUM dmlList
    ;

postAccumClause
    : POST_ACCUM (LPAREN identifier RPAREN)? dmlList
    ;

orderClause
    : ORDER BY orderKey (COMMA orderKey)*
    ;

orderKey
    : expr (ASC | DESC)?
    ;

limitClause
    : LIMIT expr ((COMMA | OFFSET) expr)?
    ;

// ---------------------------------------------------------------------------------------
// Expressions. Precedence, high to low: postfix (. [] calls), unary -, ^, * / %, + -,
// << >>, &, |, UNION/INTERSECT/MINUS; then comparisons, IN, BETWEEN, LIKE, IS; NOT; AND; OR.

expr
    : NOT expr                                             # notExpr
    | expr AND expr                                        # andExpr
    | expr OR expr                                         # orExpr
    | arith ( compareOp arith
            | NOT? (IN arith | BETWEEN arith AND arith | LIKE arith (ESCAPE arith)?)
            | IS NOT? (NULL | NUMERIC | EMPTY)
            )?                                             # predicateExpr
    ;

compareOp
    : EQEQ | NEQ | LT | LE | GT | GE
    ;

// The leaves (literals, names, calls, ...) are alternatives of `arith` itself rather than a
// separate rule: every rule level costs a context object per leaf, and parsing is mostly that.
arith
    : arith DOT memberName LPAREN args? RPAREN             # methodCallArith
    | arith DOT memberName                                 # fieldArith
    | arith DOT LOCAL_ACCUM PRIME?                         # accumAccessArith
    | arith LBRACK expr RBRACK                             # indexArith
    | DASH arith                                           # negateArith
    | <assoc = right> arith CARET arith                    # powerArith
    | arith (STAR | SLASH | PERCENT) arith                 # mulArith
    | arith (PLUS | DASH) arith                            # addArith
    | arith (SHL | GT GT) arith                            # shiftArith
    | arith AMP arith                                      # bitAndArith
    | arith PIPE arith                                     # bitOrArith
    | arith (UNION | INTERSECT | MINUS) arith              # setArith
    | INT_LIT                                              # intLiteral
    | REAL_LIT                                             # realLiteral
    | STRING_LIT                                           # stringLiteral
    | (TRUE | FALSE)                                       # boolLiteral
    | (GSQL_INT_MAX | GSQL_INT_MIN | GSQL_UINT_MAX)        # namedConstant
    | UNDERSCORE                                           # underscore
    | ANY                                                  # anyType
    | GLOBAL_ACCUM                                         # globalAccum
    | LOCAL_ACCUM                                          # localAccum
    | identifier DOT STAR                                  # typeStar
    | functionName LPAREN (DISTINCT? args? | STAR) RPAREN  # call
    | TRIM LPAREN ((LEADING | TRAILING | BOTH)? arith? FROM)? arith RPAREN   # trim
    | RANGE LBRACK expr COMMA expr RBRACK                  # range
    | INTERVAL arith identifier                            # interval
    | identifier                                           # name
    | LPAREN args (ARROW args)? RPAREN                     # parenthesized
    | LBRACK args? RBRACK                                  # listLiteral
    | LBRACE args? RBRACE                                  # seedSet
    | CASE expr? (WHEN expr THEN expr)+ (ELSE expr)? END   # caseExpr
    | COLUMN_POS                                           # columnPosition
    | COLUMN_NAME (COLON STRING_LIT)*                      # columnName
    | DOLLAR identifier DOT identifier                     # columnSys
    ;

// Function names: identifiers and the keywords that are built-in functions.
functionName
    : identifier
    | COUNT | SUM | MIN | MAX | AVG | COALESCE | ISEMPTY | SET
    ;

args
    : expr (COMMA expr)*
    ;

// ---------------------------------------------------------------------------------------
// Shell commands

installQuery
    : INSTALL QUERY flag* (allNames | nameList)?
    ;

runQuery
    : RUN QUERY flag* identifier LPAREN args? RPAREN
    ;

interpretQuery
    : INTERPRET QUERY flag* identifier LPAREN args? RPAREN
    ;

showStatement
    : SHOW (QUERY | VERTEX | EDGE | GRAPH | JOB | PACKAGE) (DASH memberName STRING_LIT | globPattern)?   # showObjects
    | SHOW (USER | SECRET | ROLE)                                                                       # showAccounts
    | SHOW LOADING STATUS (ALL | wordSequence)                                                          # showLoadingStatus
    | SHOW PRIVILEGE ON (USER | ROLE) identifier                                                        # showPrivilege
    | SHOW ACL PRIVILEGE ON (QUERY | USER | ROLE) nameList                                               # showAclPrivilege
    ;

lsStatement
    : LS
    ;

setStatement
    : SET identifier (DOT identifier)* EQ optionValue
    ;

createSecret
    : CREATE SECRET plainName?
    ;

createUser
    : CREATE USER plainName?
    ;

alterPassword
    : ALTER PASSWORD plainName?
    ;

createRole
    : CREATE ROLE nameList (ON (GRAPH identifier | GLOBAL))?
    ;

roleGrant
    : GRANT ROLE nameList (ON GRAPH identifier)? TO nameList        # grantRole
    | REVOKE ROLE nameList (ON GRAPH identifier)? FROM nameList     # revokeRole
    ;

privilegeGrant
    : GRANT PRIVILEGE nameList (ON (GRAPH identifier | GLOBAL))? TO nameList       # grantPrivilege
    | REVOKE PRIVILEGE nameList (ON (GRAPH identifier | GLOBAL))? FROM nameList    # revokePrivilege
    ;

// Query ACLs: `GRANT ACL PRIVILEGE READ, EXECUTE ON QUERY q TO r1, r2 | NOBODY` and
// `REVOKE ACL PRIVILEGE ... FROM r | ALL` (NOBODY and ALL are read as names here), with the
// owner's ACL password when it has one: `SECURED BY "pw"`.
aclGrant
    : GRANT ACL PRIVILEGE nameList ON QUERY identifier TO nameList securedBy?      # grantAcl
    | REVOKE ACL PRIVILEGE nameList ON QUERY identifier FROM nameList securedBy?   # revokeAcl
    ;

securedBy
    : SECURED BY aclPasswordText
    ;

// A password written in a command: quoted (any characters) or a bare word or number.
aclPasswordText
    : STRING_LIT
    | identifier
    | INT_LIT
    ;

// `CHANGE OWNER OF QUERY q TO user [SECURED BY "pw"]`
changeOwner
    : CHANGE OWNER OF QUERY identifier TO identifier securedBy?
    ;

// `ALTER [USER u] ACL PASSWORD` (a dialog asks), `... SET new [REPLACE current]`,
// `... CLEAR REPLACE current`.
alterAclPassword
    : ALTER (USER identifier)? ACL PASSWORD (SET aclPasswordText (REPLACE aclPasswordText)? | CLEAR REPLACE aclPasswordText)?
    ;

clearGraphStore
    : CLEAR GRAPH STORE flag*
    ;

helpStatement
    : HELP (plainName | QUERY)?
    ;

// A shell block: the statements between BEGIN and END go as one unit; ABORT discards them.
shellBlock
    : BEGIN topStatement* (END | ABORT)
    ;
