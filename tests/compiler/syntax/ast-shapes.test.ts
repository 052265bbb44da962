// What later stages rely on in the AST, checked node by node: literal text (64-bit values
// never pass through a JS number), PRINT and CREATE QUERY source text, V1 vs V2 edge
// spellings, the SYNTAX header, case-insensitive keywords with case-sensitive names, and
// the constructs the builder reinterprets (S (T) = ..., LOG, REDUCE, RANGE ... STEP).
import { expect } from "chai";
import { analyzeSource } from "../../../compiler/front-end.js";
import { parse } from "../../../compiler/parse/parse.js";
import { DiagnosticLog } from "../../../compiler/diagnostics/diagnostic-log.js";
import type {
  AstAssign, AstCreateQuery, AstExpr, AstPrint, AstSelect, AstStatement, AstTopStatement,
} from "../../../compiler/ast/index.js";

function script(text: string): AstTopStatement[] {
  const result = analyzeSource(text, "test.gsql", { astOnly: true });
  expect(result.log.diagnostics.map((d) => `${d.code} ${d.message}`)).to.deep.equal([]);
  return result.ast.statements;
}

function body(statements: string, header = ""): AstStatement[] {
  const [query] = script(`CREATE QUERY q() FOR GRAPH G ${header} {\n${statements}\n}`);
  return (query as AstCreateQuery).body;
}

function valueOf(statement: AstStatement | undefined): AstExpr {
  expect(statement?.kind).to.equal("Assign");
  return (statement as AstAssign).value;
}

function selectOf(statement: AstStatement | undefined): AstSelect {
  const value = valueOf(statement);
  expect(value.kind).to.equal("Select");
  return value as AstSelect;
}

describe("AST: literals", () => {
  it("keeps 64-bit integers as their exact text, minus sign included", () => {
    const [a, b, c] = body("INT a = 9223372036854775807;\nINT b = -9223372036854775808;\nUINT c = 18446744073709551615;");
    const texts = [a, b, c].map((s) => (s as { vars: { init?: AstExpr }[] }).vars[0]!.init);
    expect(texts.map((t) => (t as { text: string }).text)).to.deep.equal(
      ["9223372036854775807", "-9223372036854775808", "18446744073709551615"]);
    expect(texts.map((t) => t!.kind)).to.deep.equal(["IntLiteral", "IntLiteral", "IntLiteral"]);
  });

  it("reads every real form and keeps the text", () => {
    const [decl] = body("DOUBLE a = 3.25, b = .5, c = 5., d = 1e3, e = -2.5E-3;");
    const inits = (decl as { vars: { init: AstExpr }[] }).vars.map((v) => v.init);
    expect(inits.map((i) => [i.kind, (i as { text: string }).text])).to.deep.equal([
      ["RealLiteral", "3.25"], ["RealLiteral", ".5"], ["RealLiteral", "5."], ["RealLiteral", "1e3"], ["RealLiteral", "-2.5E-3"],
    ]);
  });

  it("unescapes strings and keeps the written form", () => {
    const [decl] = body('STRING s = "a\\"b\\\\c\\td";');
    const init = (decl as { vars: { init: AstExpr }[] }).vars[0]!.init;
    expect(init).to.include({ kind: "StringLiteral", text: '"a\\"b\\\\c\\td"', value: 'a"b\\c\td' });
  });

  it("tells a negated literal from a negated expression", () => {
    const [a, b] = body("x = -5;\ny = -(5);").map(valueOf);
    expect(a).to.include({ kind: "IntLiteral", text: "-5" });
    expect(b).to.include({ kind: "IntLiteral", text: "-5" });
    const [c] = body("z = -n;").map(valueOf);
    expect(c).to.include({ kind: "Unary", op: "-" });
  });
});

describe("AST: operators", () => {
  function shape(e: AstExpr): unknown {
    if (e.kind === "Binary") return [shape(e.left), e.op, shape(e.right)];
    if (e.kind === "Unary") return [e.op, shape(e.operand)];
    if (e.kind === "IntLiteral") return e.text;
    if (e.kind === "Ident") return e.name;
    return e.kind;
  }
  const cases: [string, unknown][] = [
    ["2 + 80 >> 4", [["2", "+", "80"], ">>", "4"]],
    ["2 | 3 + 2", ["2", "|", ["3", "+", "2"]]],
    ["1 << 2 & 3 | 4", [[["1", "<<", "2"], "&", "3"], "|", "4"]],
    ["a * b + c % d", [["a", "*", "b"], "+", ["c", "%", "d"]]],
    ["a - b - c", [["a", "-", "b"], "-", "c"]],
    ["NOT a AND b OR c", [[["NOT", "a"], "AND", "b"], "OR", "c"]],
    ["a OR b AND c", ["a", "OR", ["b", "AND", "c"]]],
    ["a == b AND c != d", [["a", "==", "b"], "AND", ["c", "!=", "d"]]],
    ["a UNION b INTERSECT c", [["a", "UNION", "b"], "INTERSECT", "c"]],
  ];
  for (const [text, expected] of cases) {
    it(`reads ${text}`, () => {
      expect(shape(valueOf(body(`x = ${text};`)[0]))).to.deep.equal(expected);
    });
  }

  it("reads BETWEEN, IN, LIKE and IS checks with their negations", () => {
    const [between, notIn, like, isNull] = body(
      "a = x NOT BETWEEN 1 AND 2 AND y;\nb = x NOT IN (1, 2);\nc = s LIKE \"a%\" ESCAPE \"\\\\\";\nd = p IS NOT NULL;").map(valueOf);
    expect(between).to.include({ kind: "Binary", op: "AND" });
    expect((between as { left: AstExpr }).left).to.include({ kind: "Between", negated: true });
    expect(notIn).to.include({ kind: "In", negated: true });
    expect((notIn as { set: AstExpr }).set.kind).to.equal("ParenList");
    expect(like.kind).to.equal("Like");
    expect((like as { escape?: AstExpr }).escape?.kind).to.equal("StringLiteral");
    expect(isNull).to.include({ kind: "IsCheck", check: "NULL", negated: true });
  });

  it("does not confuse nested type arguments with a right shift", () => {
    const [decl] = body("MapAccum<STRING, MapAccum<INT, SumAccum<INT>>> @@m;");
    expect(decl).to.include({ kind: "AccumDecl" });
  });
});

describe("AST: statements the builder reinterprets", () => {
  it("reads S (T) = ... as a vertex-set declaration", () => {
    const [a, b, c] = body("S (ANY) = {v};\nT (Person) = {v};\nU (A|B) = {v};");
    expect(a).to.include({ kind: "VertexSetDecl" });
    expect((a as { types: AstExpr[] }).types.map((t) => t.kind)).to.deep.equal(["AnyType"]);
    expect((b as { types: { name: string }[] }).types.map((t) => t.name)).to.deep.equal(["Person"]);
    expect((c as { types: { name: string }[] }).types.map((t) => t.name)).to.deep.equal(["A", "B"]);
  });

  it("reads LOG(...) as a statement but log(x) in an expression as a call", () => {
    const [logStmt, assign] = body("LOG(TRUE, \"msg\", 1);\nd = log(2.0);");
    expect(logStmt).to.include({ kind: "Log" });
    expect(valueOf(assign)).to.include({ kind: "Call" });
  });

  it("folds RANGE[a, b].STEP(c) into one range", () => {
    const [loop] = body("FOREACH k IN RANGE[1, 7].STEP(3) DO x = k; END;");
    const iterable = (loop as { iterable: AstExpr }).iterable;
    expect(iterable.kind).to.equal("Range");
    expect((iterable as { step?: { text: string } }).step?.text).to.equal("3");
  });

  it("reads REDUCE(fn(value)) in a loading job", () => {
    const [job] = script("CREATE LOADING JOB j FOR GRAPH G { DEFINE FILENAME f; LOAD f TO VERTEX V VALUES ($0, REDUCE(add($1))); }");
    const load = (job as { statements: { kind: string; destinations?: { values: AstExpr[] }[] }[] }).statements[1]!;
    expect(load.destinations![0]!.values[1]).to.include({ kind: "Reduce" });
  });

  it("reads a HeapAccum's first argument as capacity unless it is a lone sort field", () => {
    const heaps = body("HeapAccum<T>(10, a DESC) @@x;\nHeapAccum<T>(k, a) @@y;\nHeapAccum<T>(a DESC) @@z;\nHeapAccum<T>(a) @@w;")
      .map((s) => (s as { type: { heap: { capacity?: AstExpr; keys: { field: { name: string } }[] } } }).type.heap);
    expect(heaps.map((h) => [h.capacity?.kind ?? null, h.keys.map((k) => k.field.name)])).to.deep.equal([
      ["IntLiteral", ["a"]], ["Ident", ["a"]], [null, ["a"]], [null, ["a"]],
    ]);
  });
});

describe("AST: text later stages need", () => {
  it("keeps each PRINT expression's exact text and its whitespace-free key text", () => {
    const [print] = body('PRINT x + 1, @@l.get( 0 ), "a b" AS s, COALESCE(p1 , 999.5), A.size() > 10, S[S.name, S.@n AS k];');
    const items = (print as AstPrint).items;
    expect(items.map((i) => i.text)).to.deep.equal(
      ["x + 1", "@@l.get( 0 )", '"a b"', "COALESCE(p1 , 999.5)", "A.size() > 10", "S[S.name, S.@n AS k]"]);
    expect(items.map((i) => i.keyText)).to.deep.equal(
      ["x+1", "@@l.get(0)", '"a b"', "COALESCE(p1,999.5)", "A.size()>10", "S[S.name,S.@nASk]"]);
    expect(items[2]!.alias?.name).to.equal("s");
  });

  it("keeps the whole CREATE QUERY text, comments and layout included", () => {
    const text = "CREATE QUERY hello(VERTEX<Person> p) FOR GRAPH Social {\n  # greet\n  PRINT p;\n}";
    const created = script(`USE GRAPH Social\n${text}\nINSTALL QUERY hello`)[1] as AstCreateQuery;
    expect(created.text).to.equal(text);
    expect(created.bodyRange.start).to.include({ line: 2, column: 55 });
  });

  it("reads the SYNTAX header in any case", () => {
    const [v1, v2] = script("CREATE QUERY a() FOR GRAPH G SYNTAX v1 { PRINT 1; }\nCREATE QUERY b() SYNTAX V2 FOR GRAPH G { PRINT 1; }") as AstCreateQuery[];
    expect(v1!.syntax?.version).to.equal("V1");
    expect(v2!.syntax?.version).to.equal("V2");
    expect(v2!.graph?.name).to.equal("G");
  });
});

describe("AST: edge patterns keep both spellings", () => {
  function edges(pattern: string, syntax = "V1") {
    const select = selectOf(body(`R = SELECT t FROM ${pattern};`, `SYNTAX ${syntax}`)[0]);
    return select.from[0]!.edges.map((e) => ({
      arrow: e.arrow,
      alias: e.alias?.name,
      segments: e.segments.map((s) => ({
        types: s.alternatives.map((a) => [a.name.kind === "Ident" ? a.name.name : a.name.kind, a.direction]),
        parenthesized: s.parenthesized,
        ...(s.repeat ? { repeat: [s.repeat.lower ?? null, s.repeat.upper ?? null] } : {}),
      })),
    }));
  }

  it("V1 arrowhead outside: -(E:e)->", () => {
    expect(edges("S:s -(Knows:e)-> P:t")).to.deep.equal(
      [{ arrow: "right", alias: "e", segments: [{ types: [["Knows", "none"]], parenthesized: false }] }]);
  });

  it("no arrowhead: -(E:e)-", () => {
    expect(edges("S:s -(Knows:e)- P:t")[0]).to.include({ arrow: "none", alias: "e" });
  });

  it("V2 marks inside: -(E>:e)- and -(<E:e)-", () => {
    expect(edges("P:s -(Knows>:e)- P:t", "V2")[0]!.segments[0]!.types).to.deep.equal([["Knows", "forward"]]);
    expect(edges("P:s -(<Knows:e)- P:t", "V2")[0]!.segments[0]!.types).to.deep.equal([["Knows", "backward"]]);
  });

  it("alternations with and without their own parentheses", () => {
    expect(edges("S:s -((A|B):e)- :t")[0]!.segments[0]).to.deep.equal({ types: [["A", "none"], ["B", "none"]], parenthesized: true });
    expect(edges("S:s -(A|B:e)- :t")[0]!.segments[0]).to.deep.equal({ types: [["A", "none"], ["B", "none"]], parenthesized: false });
    expect(edges("P:s -((A>|<B|C):e)- :t", "V2")[0]!.segments[0]!.types).to.deep.equal([["A", "forward"], ["B", "backward"], ["C", "none"]]);
  });

  it("wildcards and empty edge specs", () => {
    expect(edges("S:s -(_:e)- :t")[0]!.segments[0]!.types).to.deep.equal([["AnyType", "none"]]);
    expect(edges("S:s -(:e)- :t")[0]).to.deep.equal({ arrow: "none", alias: "e", segments: [] });
    expect(edges("S:s -()- :t")[0]).to.deep.equal({ arrow: "none", alias: undefined, segments: [] });
  });

  it("repetition bounds and concatenation", () => {
    expect(edges("P:s -(K>*)- P:t", "V2")[0]!.segments[0]!.repeat).to.deep.equal([null, null]);
    expect(edges("P:s -(K>*2)- P:t", "V2")[0]!.segments[0]!.repeat).to.deep.equal(["2", "2"]);
    expect(edges("P:s -(K>*1..3)- P:t", "V2")[0]!.segments[0]!.repeat).to.deep.equal(["1", "3"]);
    expect(edges("P:s -(K>*..3)- P:t", "V2")[0]!.segments[0]!.repeat).to.deep.equal([null, "3"]);
    expect(edges("P:s -(K>*2..)- P:t", "V2")[0]!.segments[0]!.repeat).to.deep.equal(["2", null]);
    expect(edges("P:s -(<A.B>)- P:t", "V2")[0]!.segments.map((s) => s.types)).to.deep.equal([[["A", "backward"]], [["B", "forward"]]]);
  });
});

describe("AST: keywords are case-insensitive, names are not", () => {
  it("reads mixed-case keywords and keeps names as written", () => {
    const [query] = script("create Query MyQ(int N, vertex<Person> P) for graph G {\n  sumaccum<INT> @@Total;\n  Print N;\n}") as AstCreateQuery[];
    expect(query!.name.name).to.equal("MyQ");
    expect(query!.params.map((p) => [p.type.kind === "BaseType" ? p.type.name : p.type.kind, p.name.name])).to.deep.equal(
      [["INT", "N"], ["VERTEX", "P"]]);
    const decl = query!.body[0] as { type: { name: string; spelling: string } };
    expect(decl.type).to.include({ name: "SumAccum", spelling: "sumaccum" });
  });
});

describe("AST: ELSE IF as a chain or as a nested IF", () => {
  function shape(statements: AstStatement[]): unknown {
    return statements.map((s) => {
      if (s.kind === "If") {
        return { if: s.branches.map((b) => shape(b.body)), ...(s.otherwise ? { else: shape(s.otherwise) } : {}) };
      }
      if (s.kind === "Assign" && s.value.kind === "IntLiteral") return s.value.text;
      return s.kind;
    });
  }

  it("reads a chain sharing one END", () => {
    expect(shape(body("IF a THEN x = 1; ELSE IF b THEN x = 2; ELSE IF c THEN x = 3; ELSE x = 4; END;"))).to.deep.equal(
      [{ if: [["1"], ["2"], ["3"]], else: ["4"] }]);
  });

  it("reads an IF nested in ELSE with its own END", () => {
    expect(shape(body("IF a THEN x = 1; ELSE IF b THEN x = 2; END; x = 5; END;"))).to.deep.equal(
      [{ if: [["1"]], else: [{ if: [["2"]] }, "5"] }]);
    expect(shape(body("IF a THEN x = 1;\nELSE\n  IF b THEN x = 2; ELSE x = 3; END;\nEND;"))).to.deep.equal(
      [{ if: [["1"]], else: [{ if: [["2"]], else: ["3"] }] }]);
  });

  it("mixes both at the DML level, and after ELSE of CASE an IF is always nested", () => {
    const [, select] = body("S = {P.*};\nS = SELECT s FROM S:s ACCUM IF a THEN x = 1 ELSE IF b THEN x = 2 ELSE IF c THEN x = 3 END END, y = 9;");
    const accum = (selectOf(select).accum!.body);
    // Three IFs and two ENDs: one ELSE IF is nested. Which one does not change the meaning;
    // the last chained one is taken.
    expect(shape(accum)).to.deep.equal([{ if: [["1"], ["2"]], else: [{ if: [["3"]] }] }, "9"]);
    const [caseStmt] = body("CASE WHEN a THEN x = 1; ELSE IF b THEN x = 2; END; END;");
    expect(caseStmt!.kind).to.equal("CaseStatement");
    expect(shape((caseStmt as { otherwise: AstStatement[] }).otherwise)).to.deep.equal([{ if: [["2"]] }]);
  });

  it("parses deeply nested ELSE IF without the slow full-LL pass", () => {
    const depth = 40;
    const text = `CREATE QUERY q() FOR GRAPH G {\n${"IF a THEN x = 1; ELSE ".repeat(depth)}x = 2;${" END;".repeat(depth)}\n}`;
    const log = new DiagnosticLog();
    expect(parse(text, "deep.gsql", log).usedFullLL).to.equal(false);
    expect(log.diagnostics).to.deep.equal([]);
  });
});

describe("AST: query-body statements written inside a SELECT, and the SQL-like SELECT", () => {
  it("splits `ACCUM PRINT a, b, @@n += 1` into a PRINT of two items and an accumulation", () => {
    const select = selectOf(body("S = SELECT s FROM S:s ACCUM PRINT s.name, @@n, @@n += 1, RAISE oops (\"x\"), RETURN;")[0]);
    const accum = select.accum!.body;
    expect(accum.map((s) => s.kind)).to.deep.equal(["Print", "Assign", "Raise", "Return"]);
    expect((accum[0] as AstPrint).items.map((i) => i.keyText)).to.deep.equal(["s.name", "@@n"]);
  });

  it("reads SELECT ... INTO with its columns, GROUP BY, HAVING, ORDER BY and LIMIT", () => {
    const [s] = body("SELECT DISTINCT t.name AS who, COUNT(s) AS n, max(e.w) INTO tbl FROM P:s -(E>:e)- P:t\n" +
      "WHERE s.age > 3 GROUP BY t.name HAVING n > 1 ORDER BY n DESC LIMIT 3;", "SYNTAX V2");
    expect(s!.kind).to.equal("SqlSelect");
    const sql = s as Extract<AstStatement, { kind: "SqlSelect" }>;
    expect(sql.distinct).to.equal(true);
    expect(sql.into.name).to.equal("tbl");
    expect(sql.columns.map((c) => [c.alias?.name, c.keyText])).to.deep.equal([["who", "t.name"], ["n", "COUNT(s)"], [undefined, "max(e.w)"]]);
    expect(sql.groupBy.map((g) => g.kind)).to.deep.equal(["FieldAccess"]);
    expect([sql.where?.kind, sql.having?.kind, sql.orderBy.map((k) => k.order), sql.limit?.form]).to.deep.equal(["Binary", "Binary", ["DESC"], "count"]);
  });

  it("still reads a classic SELECT that starts the same way", () => {
    const [s] = body("SELECT DISTINCT t FROM P:s -(E>:e)- P:t;", "SYNTAX V2");
    expect(s!.kind).to.equal("ExprStatement");
  });
});
