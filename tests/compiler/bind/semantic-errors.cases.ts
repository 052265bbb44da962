// Wrong inputs for the semantic stages: each text is checked against SCHEMA (prepended) and
// must give exactly the listed diagnostics. `⟪` marks where each expected diagnostic starts
// (the marker is removed before checking; line:col are computed from it), in order.

export const SCHEMA = `CREATE VERTEX Person (PRIMARY_ID pid STRING, name STRING, age INT, score DOUBLE)
CREATE VERTEX City (PRIMARY_ID cid STRING, name STRING) WITH primary_id_as_attribute="true"
CREATE DIRECTED EDGE Knows (FROM Person, TO Person, weight INT) WITH REVERSE_EDGE="Knows_rev"
CREATE UNDIRECTED EDGE Friend (FROM Person, TO Person)
CREATE DIRECTED EDGE LivesIn (FROM Person, TO City, since DATETIME)
CREATE GRAPH Social (*)
`;

export interface ErrorCase {
  name: string;
  text: string;
  /** Expected codes, one per `⟪` marker, in source order. */
  codes: string[];
}

const q = (body: string, header = "q()", syntax = "V1") =>
  `CREATE QUERY ${header} FOR GRAPH Social SYNTAX ${syntax} {\n${body}\n}\n`;

export const CASES: ErrorCase[] = [
  // ---- names
  { name: "unknown vertex type in a seed", codes: ["GSQL2002"], text: q(`  S = {⟪Persn.*};`) },
  { name: "unknown attribute", codes: ["GSQL2004"],
    text: q(`  S = {Person.*};\n  S = SELECT s FROM S:s WHERE s.⟪nme == "x";`) },
  { name: "primary id used as an attribute", codes: ["GSQL2012"],
    text: q(`  S = {Person.*};\n  S = SELECT s FROM S:s WHERE s.⟪pid == "x";`) },
  { name: "unknown edge type in a pattern", codes: ["GSQL2003"],
    text: q(`  S = {Person.*};\n  S = SELECT t FROM S:s -(⟪Knws:e)-> Person:t;`) },
  { name: "@@ used for a vertex-attached accumulator", codes: ["GSQL2013"],
    text: q(`  SumAccum<INT> @cnt;\n  ⟪@@cnt += 1;`) },
  { name: "unknown variable", codes: ["GSQL2005"], text: q(`  PRINT ⟪zz;`) },
  { name: "unknown sub-query", codes: ["GSQL2010"], text: q(`  INT x = ⟪nosuch(1);`) },
  { name: "duplicate declaration in one block", codes: ["GSQL2011"], text: q(`  INT x = 1;\n  INT ⟪x = 2;`) },
  { name: "unknown exception in RAISE", codes: ["GSQL2014"], text: q(`  RAISE ⟪oops ("x");`) },
  { name: "unknown graph", codes: ["GSQL2001"], text: `CREATE QUERY q() FOR GRAPH ⟪Nope { PRINT 1; }\n` },
  { name: "unknown vertex type in VERTEX<T> parameter", codes: ["GSQL2002"], text: q(`  PRINT v;`, "q(VERTEX<⟪Persn> v)") },
  // ---- types
  { name: "attribute compared with a value of the wrong type", codes: ["GSQL3002"],
    text: q(`  S = {Person.*};\n  S = SELECT s FROM S:s WHERE ⟪s.age == "x";`) },
  { name: "accumulator += of the wrong type", codes: ["GSQL3003"], text: q(`  SumAccum<INT> @@n;\n  @@n += ⟪"x";`) },
  { name: "vertex alias accumulated into an edge list", codes: ["GSQL3003"],
    text: q(`  ListAccum<EDGE> @@es;\n  S = {Person.*};\n  S = SELECT t FROM S:s -(Knows:e)-> Person:t ACCUM @@es += ⟪t;`) },
  { name: "edge alias used as a vertex", codes: ["GSQL3011"],
    text: q(`  SumAccum<INT> @x;\n  S = {Person.*};\n  S = SELECT t FROM S:s -(Knows:e)-> Person:t ACCUM ⟪e.@x += 1;`) },
  { name: "condition that is not BOOL", codes: ["GSQL3005"], text: q(`  IF ⟪1 THEN PRINT 1; END;`) },
  { name: "assignment to a parameter", codes: ["GSQL3013"], text: q(`  ⟪p = 3;`, "q(INT p)") },
  { name: "parameter default of the wrong type", codes: ["GSQL3008"], text: q(`  PRINT p;`, `q(INT p = ⟪"x")`) },
  { name: "edge type as a parameter", codes: ["GSQL3009"], text: q(`  PRINT 1;`, "q(⟪EDGE e)") },
  { name: "edge type inside a SET parameter", codes: ["GSQL3009"], text: q(`  PRINT 1;`, "q(⟪SET<EDGE> es)") },
  { name: "HAVING on the other alias", codes: ["GSQL3016"],
    text: q(`  S = {Person.*};\n  S = SELECT t FROM S:s -(Knows:e)-> Person:t HAVING ⟪s.age > 3;`) },
  { name: "OFFSET without ORDER BY", codes: ["GSQL3017"],
    text: q(`  S = {Person.*};\n  S = SELECT s FROM S:s LIMIT 3 OFFSET ⟪1;`) },
  { name: "V1 POST-ACCUM statement using both aliases", codes: ["GSQL3018"],
    text: q(`  SumAccum<INT> @x;\n  S = {Person.*};\n  S = SELECT t FROM S:s -(Knows:e)-> Person:t POST-ACCUM ⟪s.@x += t.@x;`) },
  { name: "global accumulator assigned with = in ACCUM", codes: ["GSQL3014"],
    text: q(`  SumAccum<INT> @@n;\n  S = {Person.*};\n  S = SELECT t FROM S:s -(Knows:e)-> Person:t ACCUM ⟪@@n = 1;`) },
  { name: "vertex-attached accumulator declared inside WHILE", codes: ["GSQL3015"],
    text: q(`  WHILE TRUE LIMIT 2 DO\n    SumAccum<INT> ⟪@x;\n  END;`) },
  { name: "exception code not above 40000", codes: ["GSQL3020"], text: q(`  EXCEPTION low (⟪40000);`) },
  { name: "sub-query argument of the wrong type", codes: ["GSQL3027"],
    text: `CREATE QUERY sub(INT k) FOR GRAPH Social RETURNS (INT) { RETURN k; }\n` + q(`  INT x = sub(⟪"a");`) },
  { name: "RETURN of the wrong type", codes: ["GSQL3010"],
    text: `CREATE QUERY r() FOR GRAPH Social RETURNS (INT) {\n  RETURN ⟪"a";\n}\n` },
  { name: "vertex attribute assigned in ACCUM", codes: ["GSQL3026"],
    text: q(`  S = {Person.*};\n  S = SELECT t FROM S:s -(Knows:e)-> Person:t ACCUM ⟪t.age = 3;`) },
  { name: "vertex-attached accumulator written at query-body level", codes: ["GSQL3031"],
    text: q(`  SumAccum<INT> @x;\n  ⟪v.@x += 1;`, "q(VERTEX<Person> v)") },
  { name: "mutator method on a global accumulator in ACCUM", codes: ["GSQL3023"],
    text: q(`  ListAccum<INT> @@l;\n  S = {Person.*};\n  S = SELECT t FROM S:s -(Knows:e)-> Person:t ACCUM ⟪@@l.clear();`) },
  { name: "BREAK outside a loop", codes: ["GSQL3025"], text: q(`  ⟪BREAK;`) },
  { name: "V1 FROM source that is not a vertex-set variable", codes: ["GSQL3038"],
    text: q(`  S = SELECT s FROM ⟪Person:s;`) },
  { name: "vertex set reassigned with another vertex type", codes: ["GSQL3022"],
    text: q(`  S = {Person.*};\n  S = ⟪{City.*};`) },
  { name: "IS NULL on something that is not a parameter", codes: ["GSQL3032"], text: q(`  INT x = 1;\n  PRINT ⟪x IS NULL;`) },
  { name: "built-in called with too many arguments", codes: ["GSQL3006"], text: q(`  PRINT ⟪abs(1, 2);`) },
  { name: "sub-query called without a required argument", codes: ["GSQL3034"],
    text: `CREATE QUERY sub2(INT k) FOR GRAPH Social RETURNS (INT) { RETURN k; }\n` + q(`  INT x = ⟪sub2();`) },
  { name: "HeapAccum ordered by a field its tuple lacks", codes: ["GSQL3021"],
    text: q(`  TYPEDEF TUPLE<STRING k, INT v> KV;\n  ⟪HeapAccum<KV>(3, zz DESC) @@h;`) },
  { name: "floating-point equality is a warning", codes: ["GSQL3012"], text: q(`  DOUBLE d = 1.5;\n  PRINT ⟪d == 1.5;`) },
  { name: "string plus number", codes: ["GSQL3002"], text: q(`  PRINT ⟪"a" + 1;`) },
  // ---- lifecycle
  { name: "INSTALL QUERY -OPTIMIZE with a name", codes: ["GSQL5001"],
    text: q(`  PRINT 1;`) + `USE GRAPH Social\nINSTALL QUERY -OPTIMIZE ⟪q\n` },
  { name: "CREATE QUERY of an existing name", codes: ["GSQL5002"],
    text: q(`  PRINT 1;`) + `CREATE QUERY ⟪q() FOR GRAPH Social { PRINT 2; }\n` },
  // ---- DDL
  { name: "edge FROM an unknown vertex type", codes: ["GSQL4002"],
    text: `CREATE DIRECTED EDGE E2 (FROM ⟪Nope, TO Person)\n` },
  { name: "vertex type name used twice", codes: ["GSQL4001"],
    text: `CREATE VERTEX ⟪Person (PRIMARY_ID id STRING)\n` },
  { name: "DEFAULT that does not fit the attribute type", codes: ["GSQL4004"],
    text: `CREATE VERTEX V2 (PRIMARY_ID id STRING, age INT DEFAULT ⟪"abc")\n` },
  { name: "REVERSE_EDGE on an undirected edge", codes: ["GSQL4005"],
    text: `CREATE UNDIRECTED EDGE U (FROM Person, TO Person) WITH ⟪REVERSE_EDGE="U_rev"\n` },
  { name: "duplicate attribute", codes: ["GSQL4003"],
    text: `CREATE VERTEX V3 (PRIMARY_ID id STRING, a INT, ⟪a STRING)\n` },
  { name: "CREATE GRAPH with an unknown type", codes: ["GSQL4006"], text: `CREATE GRAPH G2 (Person, ⟪Nope)\n` },
  { name: "schema change dropping a primary key", codes: ["GSQL4008"],
    text: `CREATE GLOBAL SCHEMA_CHANGE JOB j {\n  ALTER VERTEX City DROP ATTRIBUTE (⟪cid);\n}\nRUN GLOBAL SCHEMA_CHANGE JOB j\n` },
  // ---- loading jobs
  { name: "LOAD from an undefined file variable", codes: ["GSQL4101"],
    text: `CREATE LOADING JOB j FOR GRAPH Social {\n  LOAD ⟪f TO VERTEX City VALUES ($0, $1);\n}\n` },
  { name: "LOAD with too few values", codes: ["GSQL4103"],
    text: `CREATE LOADING JOB j FOR GRAPH Social {\n  DEFINE FILENAME f;\n  LOAD f ⟪TO VERTEX Person VALUES ($0, $1);\n}\n` },
  { name: "column name without a header", codes: ["GSQL4104"],
    text: `CREATE LOADING JOB j FOR GRAPH Social {\n  DEFINE FILENAME f;\n  LOAD f TO VERTEX City VALUES (⟪$"id", $1);\n}\n` },
  { name: "WHERE function used as a value", codes: ["GSQL4105"],
    text: `CREATE LOADING JOB j FOR GRAPH Social {\n  DEFINE FILENAME f;\n  LOAD f TO VERTEX City VALUES ($0, ⟪to_int($1));\n}\n` },
  { name: "LOAD to an unknown vertex type", codes: ["GSQL4102"],
    text: `CREATE LOADING JOB j FOR GRAPH Social {\n  DEFINE FILENAME f;\n  LOAD f TO VERTEX ⟪Town VALUES ($0, $1);\n}\n` },
];

CASES.push(
  { name: "vertex accumulator read while iterating vertices at query-body level", codes: ["GSQL3041"],
    text: q(`  SumAccum<INT> @x;\n  SumAccum<INT> @@s;\n  S = {Person.*};\n  FOREACH v IN S DO @@s += ⟪v.@x; END;`) },
  { name: "DROP QUERY of a query another one calls", codes: ["GSQL5005"],
    text: `CREATE QUERY leaf() FOR GRAPH Social RETURNS (INT) { RETURN 1; }\nCREATE QUERY root() FOR GRAPH Social { PRINT leaf(); }\nUSE GRAPH Social\nDROP QUERY ⟪leaf\n` },
  { name: "unknown method", codes: ["GSQL2009"], text: q(`  ListAccum<INT> @@l;\n  PRINT @@l.⟪frob();`) },
  { name: "unknown tuple type", codes: ["GSQL2007"], text: q(`  ListAccum<⟪Nope> @@l;`) },
  { name: "unknown tuple field", codes: ["GSQL2016"],
    text: q(`  TYPEDEF TUPLE<INT a> T1;\n  MaxAccum<T1> @@m;\n  PRINT @@m.⟪b;`) },
  { name: "V2 directed edge without a direction is a warning", codes: ["GSQL3030"],
    text: q(`  R = SELECT t FROM Person:s -(⟪Knows:e)- Person:t;`, "q()", "V2") },
  { name: "arrowhead outside the parentheses in V2", codes: ["GSQL3035"],
    text: q(`  R = SELECT t FROM Person:s ⟪-(Knows>:e)-> Person:t;`, "q()", "V2") },
  { name: "SAMPLE in V2", codes: ["GSQL3035"],
    text: q(`  R = SELECT t FROM Person:s -(Knows>:e)- Person:t ⟪SAMPLE 2 EDGE WHEN s.outdegree() > 1;`, "q()", "V2") },
  // Query-body statements written inside a SELECT parse, and the binder says where they belong.
  { name: "RAISE inside ACCUM", codes: ["GSQL3019"],
    text: q(`  EXCEPTION bad (40001);\n  S = {Person.*};\n  S = SELECT t FROM S:s -(Knows:e)-> Person:t ACCUM ⟪RAISE bad ("x");`) },
  { name: "PRINT inside POST-ACCUM", codes: ["GSQL3035"],
    text: q(`  SumAccum<INT> @@n;\n  S = {Person.*};\n  S = SELECT s FROM S:s POST-ACCUM @@n += 1, ⟪PRINT s.name, @@n;`) },
  { name: "RETURN inside ACCUM", codes: ["GSQL3035"],
    text: q(`  S = {Person.*};\n  S = SELECT t FROM S:s -(Knows:e)-> Person:t ACCUM ⟪RETURN 1;\n  RETURN 2;`, "q() RETURNS (INT)") },
  { name: "OrAccum with a non-BOOL element type", codes: ["GSQL3021"], text: q(`  OrAccum<⟪INT> @@o;`) },
  { name: "AvgAccum with a STRING element type", codes: ["GSQL3021"], text: q(`  AvgAccum<⟪STRING> @@a;`) },
  // Rules gsql-semantics marks as errors.
  { name: "LIKE outside a WHERE clause", codes: ["GSQL3028"], text: q(`  BOOL b = ⟪"abc" LIKE "a%";`) },
  { name: "LIKE inside ACCUM", codes: ["GSQL3028"],
    text: q(`  SumAccum<INT> @@n;\n  S = {Person.*};\n  S = SELECT s FROM S:s ACCUM IF ⟪s.name LIKE "A%" THEN @@n += 1 END;`) },
  { name: "LIKE pattern read from the row", codes: ["GSQL3042"],
    text: q(`  S = {Person.*};\n  S = SELECT s FROM S:s -(Knows:e)-> Person:t WHERE s.name LIKE ⟪t.name;`) },
  { name: "NOT combined with .type", codes: ["GSQL3043"],
    text: q(`  S = {Person.*};\n  R = SELECT t FROM S:s -(:e)-> :t WHERE ⟪NOT t.type == "City";`) },
  { name: "V1 POST-ACCUM local used by both aliases", codes: ["GSQL3044"],
    text: q(`  SumAccum<INT> @x;\n  S = {Person.*};\n  S = SELECT t FROM S:s -(Knows:e)-> Person:t POST-ACCUM INT k = s.@x, s.@x += k, ⟪t.@x += k;`) },
  { name: "V2 SELECT with DML and two POST-ACCUM clauses", codes: ["GSQL3045"],
    text: q(`  SumAccum<INT> @x;\n  R = SELECT t FROM Person:s -(Knows>:e)- Person:t POST-ACCUM (s) s.@x += 1 ⟪POST-ACCUM (t) t.age = 3;`, "q()", "V2") },
  { name: "RANGE with a step of 0", codes: ["GSQL3046"],
    text: q(`  SumAccum<INT> @@n;\n  FOREACH i IN RANGE[1, 5].STEP(⟪0) DO @@n += i; END;`) },
  // The SQL-like SELECT ... INTO.
  { name: "SELECT ... INTO in SYNTAX V1", codes: ["GSQL3035"],
    text: q(`  S = {Person.*};\n  ⟪SELECT s.name AS n INTO names FROM S:s;`) },
  { name: "SELECT ... INTO with a grouping column after an aggregate", codes: ["GSQL3047"],
    text: q(`  SELECT COUNT(s) AS n, ⟪s.age AS age INTO t1 FROM Person:s;`, "q()", "V2") },
  { name: "SELECT ... INTO with an aggregate in HAVING that is not a column", codes: ["GSQL3048"],
    text: q(`  SELECT s.age AS age, COUNT(s) AS n INTO t1 FROM Person:s GROUP BY s.age HAVING ⟪MAX(s.score) > 1;`, "q()", "V2") },
  { name: "SELECT ... INTO summing strings", codes: ["GSQL3007"],
    text: q(`  SELECT s.age AS age, SUM(⟪s.name) AS n INTO t1 FROM Person:s GROUP BY s.age;`, "q()", "V2") },
  { name: "'*' as the argument of an aggregate other than COUNT", codes: ["GSQL3060"],
    text: q(`  SELECT ⟪SUM(*) AS n INTO t1 FROM Person:s;`, "q()", "V2") },
  { name: "COUNT(*) outside of a SELECT ... INTO column", codes: ["GSQL3060"],
    text: q(`  SumAccum<INT> @@n;\n  S = {Person.*};\n  S = SELECT s FROM S:s ACCUM @@n += ⟪count(*);`) },
  { name: "SELECT ... INTO a name already used", codes: ["GSQL2011"],
    text: q(`  INT t1 = 0;\n  SELECT s.age AS age INTO ⟪t1 FROM Person:s;`, "q()", "V2") },
  { name: "ListAccum nested four deep", codes: ["GSQL3021"],
    text: q(`  ⟪ListAccum<ListAccum<ListAccum<ListAccum<INT>>>> @@deep;`) },
  { name: "comma-separated patterns without a common alias", codes: ["GSQL3049"],
    text: q(`  R = SELECT t FROM Person:s -(Knows>:e)- Person:t, ⟪Person:x -(Friend)- Person:y;`, "q()", "V2") },
  { name: "attribute whose type differs between the types a vertex may have", codes: ["GSQL3001"],
    text: `CREATE VERTEX Box (PRIMARY_ID bid STRING, age STRING)\nCREATE GRAPH Mixed (Person, Box)\n` +
      `CREATE QUERY q(VERTEX v) FOR GRAPH Mixed {\n  S = {v};\n  S = SELECT s FROM S:s WHERE s.⟪age == 1;\n}\n` },
);
