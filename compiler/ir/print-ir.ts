// The IR as compact text, for golden tests and `gsqlc ir`. Names print as `name#id` so
// shadowed names stay distinguishable; statements one per line, nested by indentation.
import type { IrExpr, IrQuery, IrSelect, IrStmt, IrTarget } from "./ir.js";
import { accumText, typeText } from "./types.js";

const BINARY_TEXT: Record<string, string> = {
  add: "+", sub: "-", mul: "*", div: "/", mod: "%", shl: "<<", shr: ">>", bitand: "&", bitor: "|",
  eq: "==", ne: "!=", lt: "<", le: "<=", gt: ">", ge: ">=", and: "AND", or: "OR",
  concat: "++", union: "UNION", intersect: "INTERSECT", minus: "MINUS",
};

export function printIr(q: IrQuery): string {
  return new IrPrinter(q).query();
}

class IrPrinter {
  private readonly lines: string[] = [];
  private readonly varNames = new Map<number, string>();
  private readonly accNames = new Map<number, string>();
  private readonly excNames = new Map<number, string>();

  constructor(private readonly q: IrQuery) {
    for (const v of q.vars) this.varNames.set(v.id, `${v.name}#${v.id}`);
    for (const a of q.accums) this.accNames.set(a.id, `${a.scope === "global" ? "@@" : "@"}${a.name}#${a.id}`);
    for (const e of q.exceptions) this.excNames.set(e.id, `${e.name}#${e.id}`);
  }

  query(): string {
    const q = this.q;
    const params = q.params.map((id) => {
      const v = q.vars.find((x) => x.id === id)!;
      const dflt = v.default !== undefined ? ` = ${constText(v.default)}` : "";
      return `${typeText(v.type)} ${this.var(id)}${dflt}`;
    });
    this.line(0, `query ${q.name}(${params.join(", ")}) graph ${q.graph} ${q.syntax}${q.returns ? ` returns ${typeText(q.returns)}` : ""}`);
    for (const t of q.tuples) this.line(1, `tuple ${typeText(t)} = <${t.fields.map((f) => `${typeText(f.type)} ${f.name}`).join(", ")}>`);
    for (const a of q.accums) this.line(1, `accum ${this.acc(a.id)}: ${accumText(a.type)}${a.primeUsed ? " prime" : ""}`);
    for (const v of q.vars) if (v.kind !== "param" && v.kind !== "alias") this.line(1, `${v.kind} ${this.var(v.id)}: ${typeText(v.type)}`);
    for (const e of q.exceptions) this.line(1, `exception ${this.exc(e.id)} (${e.code})`);
    if (q.calls.length) this.line(1, `calls ${q.calls.join(", ")}`);
    this.line(0, "body");
    this.stmts(1, q.body);
    return this.lines.join("\n") + "\n";
  }

  private line(depth: number, text: string): void {
    this.lines.push("  ".repeat(depth) + text);
  }

  private var(id: number): string {
    return this.varNames.get(id) ?? `?var#${id}`;
  }
  private acc(id: number): string {
    return this.accNames.get(id) ?? `?acc#${id}`;
  }
  private exc(id: number): string {
    return this.excNames.get(id) ?? `?exc#${id}`;
  }

  private stmts(depth: number, body: IrStmt[]): void {
    for (const s of body) this.stmt(depth, s);
  }

  private stmt(d: number, s: IrStmt): void {
    switch (s.s) {
      case "let":
        return this.line(d, `let ${this.var(s.id)}${s.init ? ` = ${this.expr(s.init)}` : ""}`);
      case "declAccum": {
        const extra = [s.capacity ? `capacity ${this.expr(s.capacity)}` : "", s.sizes ? `sizes [${s.sizes.map((x) => this.expr(x)).join(", ")}]` : ""].filter(Boolean);
        return this.line(d, `init ${this.acc(s.id)}${s.init ? ` = ${this.expr(s.init)}` : ""}${extra.length ? " " + extra.join(" ") : ""}`);
      }
      case "resetAccum":
        return this.line(d, `reset ${this.acc(s.id)}`);
      case "assign":
        return this.line(d, `${this.target(s.target)} = ${this.expr(s.value)}`);
      case "accumulate":
        return this.line(d, `${this.target(s.target)} += ${this.expr(s.value)}`);
      case "vsetAssign":
        return this.line(d, `vset ${this.var(s.id)} = ${this.expr(s.value)}`);
      case "select":
        return this.select(d, s.id, s.select);
      case "expr":
        return this.line(d, this.expr(s.expr));
      case "if":
        s.branches.forEach((b, i) => {
          this.line(d, `${i === 0 ? "if" : "elif"} ${this.expr(b.cond)}`);
          this.stmts(d + 1, b.body);
        });
        if (s.otherwise) {
          this.line(d, "else");
          this.stmts(d + 1, s.otherwise);
        }
        return;
      case "while":
        this.line(d, `while ${this.expr(s.cond)}${s.limit ? ` limit ${this.expr(s.limit)}` : ""}`);
        return this.stmts(d + 1, s.body);
      case "forRange":
        this.line(d, `for ${this.var(s.id)} in range[${this.expr(s.low)}, ${this.expr(s.high)}]${s.step ? ` step ${this.expr(s.step)}` : ""}`);
        return this.stmts(d + 1, s.body);
      case "forEach":
        this.line(d, `for (${s.ids.map((i) => this.var(i)).join(", ")}) in ${this.expr(s.collection)}`);
        return this.stmts(d + 1, s.body);
      case "break":
      case "continue":
        return this.line(d, s.s);
      case "print": {
        const items = s.items.map((it) => {
          const proj = it.projection ? `[${it.projection.map((p) => `${JSON.stringify(p.key)}: ${this.expr(p.expr)}`).join(", ")}]` : "";
          return `${JSON.stringify(it.key)}: ${this.expr(it.expr)}${proj}`;
        });
        return this.line(d, `print {${items.join(", ")}}${s.where ? ` where ${this.expr(s.where)}` : ""}${s.toCsv !== undefined ? ` to_csv ${this.var(s.toCsv)}` : ""}`);
      }
      case "println":
        return this.line(d, `println ${this.var(s.file)} (${s.args.map((a) => this.expr(a)).join(", ")})`);
      case "log":
        return this.line(d, `log ${this.expr(s.cond)} (${s.args.map((a) => this.expr(a)).join(", ")})`);
      case "return":
        return this.line(d, `return${s.value ? " " + this.expr(s.value) : ""}`);
      case "raise":
        return this.line(d, `raise ${this.exc(s.exception)}${s.message ? ` (${this.expr(s.message)})` : ""}`);
      case "try":
        this.line(d, "try");
        this.stmts(d + 1, s.body);
        for (const h of s.handlers) {
          this.line(d, `when ${this.exc(h.exception)}`);
          this.stmts(d + 1, h.body);
        }
        if (s.otherwise) {
          this.line(d, "else");
          this.stmts(d + 1, s.otherwise);
        }
        return;
      case "insertVertex":
        return this.line(d, `insert vertex ${s.vertexType} (${this.expr(s.id)}${s.attrs.map((a) => `, ${a.name}: ${this.expr(a.value)}`).join("")})`);
      case "insertEdge":
        return this.line(
          d,
          `insert edge ${s.edgeType} (${this.expr(s.from)}${s.fromType ? " " + s.fromType : ""} -> ${this.expr(s.to)}${s.toType ? " " + s.toType : ""}${s.attrs.map((a) => `, ${a.name}: ${this.expr(a.value)}`).join("")})`,
        );
      case "delete":
        return this.line(d, `delete ${this.expr(s.target)}`);
    }
  }

  private select(d: number, id: number, sel: IrSelect): void {
    const src = sel.source.vset !== undefined ? this.var(sel.source.vset) : sel.source.vertexTypes ? `(${sel.source.vertexTypes.join("|")})` : "ANY";
    let pattern = `${src}:${this.var(sel.source.alias)}`;
    for (const h of sel.hops) {
      const edges = h.edges.map((e) => `${e.edgeType} ${e.direction}`).join("|");
      const dyn = h.dynamicEdges ? `dyn(${this.expr(h.dynamicEdges.expr)}) ${h.dynamicEdges.mark}` : "";
      const rep = h.repeat ? `*${h.repeat.min}..${h.repeat.max ?? ""}` : "";
      const alias = h.edgeAlias !== undefined ? `:${this.var(h.edgeAlias)}` : "";
      const types = h.targetTypes ? `(${h.targetTypes.join("|")})` : h.dynamicTargets ? `dyn(${this.expr(h.dynamicTargets)})` : "ANY";
      const inSet = h.targetSet !== undefined ? ` in ${this.var(h.targetSet)}` : "";
      pattern += ` -[${edges}${dyn}${rep}${alias}]- ${types}:${this.var(h.target)}${inSet}`;
    }
    this.line(d, `select#${sel.index} ${this.var(id)} = ${this.var(sel.selected)} from ${pattern} ${sel.syntax}`);
    if (sel.sample) this.line(d + 1, `sample ${this.expr(sel.sample.count)}${sel.sample.percent ? "%" : ""} ${sel.sample.what}${sel.sample.pinned ? " pinned" : ""}${sel.sample.when ? ` when ${this.expr(sel.sample.when)}` : ""}`);
    if (sel.where) this.line(d + 1, `where ${this.expr(sel.where)}`);
    if (sel.accum.length) {
      const plan = sel.accumPlan;
      const buffered = plan ? [...plan.bufferedAccums.map((a) => this.acc(a)), ...plan.bufferedVars.map((v) => this.var(v))] : [];
      const snapshot = (plan?.snapshotAccums ?? []).map((a) => this.acc(a));
      this.line(d + 1, `accum${buffered.length ? ` buffered(${buffered.join(", ")})` : ""}${snapshot.length ? ` snapshot(${snapshot.join(", ")})` : ""}`);
      this.stmts(d + 2, sel.accum);
    }
    for (const p of sel.postAccum) {
      this.line(d + 1, `post-accum ${this.var(p.alias)}`);
      this.stmts(d + 2, p.body);
    }
    if (sel.having) this.line(d + 1, `having ${this.expr(sel.having)}`);
    if (sel.orderBy.length) this.line(d + 1, `order by ${sel.orderBy.map((o) => `${this.expr(o.expr)}${o.desc ? " desc" : ""}`).join(", ")}`);
    if (sel.limit) this.line(d + 1, `limit ${this.expr(sel.limit)}${sel.offset ? ` offset ${this.expr(sel.offset)}` : ""}`);
  }

  private target(t: IrTarget): string {
    const idx = (ix?: IrExpr[]) => (ix ? ix.map((i) => `[${this.expr(i)}]`).join("") : "");
    switch (t.t) {
      case "var":
        return this.var(t.id);
      case "gacc":
        return this.acc(t.id) + idx(t.indices);
      case "vacc":
        return `${this.expr(t.vertex)}.${this.acc(t.id)}${idx(t.indices)}`;
      case "attr":
        return `${this.expr(t.target)}.${t.name}`;
    }
  }

  expr(x: IrExpr): string {
    switch (x.e) {
      case "const":
        return constText(x.value, typeText(x.type));
      case "var":
        return this.var(x.id);
      case "gacc":
        return this.acc(x.id);
      case "vacc":
        return `${this.expr(x.vertex)}.${this.acc(x.id)}${x.prime ? "'" : ""}${x.current ? " (current)" : ""}`;
      case "attr":
        return `${this.expr(x.target)}.${x.name}`;
      case "typeName":
        return `${this.expr(x.target)}.type`;
      case "field":
        return `${this.expr(x.target)}.${x.target.type.t === "tuple" ? x.target.type.fields[x.index]?.name ?? x.index : x.index}`;
      case "unary":
        return `${x.op === "neg" ? "-" : x.op === "not" ? "NOT " : "~"}${this.expr(x.arg)}`;
      case "binary":
        return `(${this.expr(x.left)} ${BINARY_TEXT[x.op]} ${this.expr(x.right)})`;
      case "convert":
        return `${typeText(x.type)}(${this.expr(x.arg)})`;
      case "call":
        return `${x.fn}(${x.distinct ? "DISTINCT " : ""}${x.args.map((a) => this.expr(a)).join(", ")})`;
      case "method":
        return `${this.expr(x.target)}.${x.method.split(".")[1]}(${x.args.map((a) => this.expr(a)).join(", ")})`;
      case "subquery":
        return `${x.query}(${x.args.map((a) => this.expr(a)).join(", ")})`;
      case "tuple":
        return `${typeText(x.type)}(${x.args.map((a) => this.expr(a)).join(", ")})`;
      case "collection": {
        const items = x.items.map((a) => this.expr(a)).join(", ");
        return x.type.t === "accum" && x.type.accum.a === "list" ? `[${items}]` : `(${items})`;
      }
      case "entry":
        return `(${x.keys.map((a) => this.expr(a)).join(", ")} -> ${x.values.map((a) => this.expr(a)).join(", ")})`;
      case "index":
        return `${this.expr(x.target)}${x.indices.map((i) => `[${this.expr(i)}]`).join("")}`;
      case "cond":
        return `case(${x.branches.map((b) => `${this.expr(b.cond)} => ${this.expr(b.value)}`).join("; ")}; else ${this.expr(x.otherwise)})`;
      case "in":
        return `(${this.expr(x.value)} ${x.negated ? "NOT IN" : "IN"} ${this.expr(x.collection)})`;
      case "like":
        return `(${this.expr(x.value)} ${x.negated ? "NOT LIKE" : "LIKE"} ${this.expr(x.pattern)}${x.escape ? ` ESCAPE ${JSON.stringify(x.escape)}` : ""})`;
      case "isNull":
        return `(${this.var(x.param)} IS ${x.negated ? "NOT " : ""}NULL)`;
      case "vset":
        return this.var(x.id);
      case "seed":
        return `{${x.parts.map((p) => (p.p === "type" ? `${p.vertexType}.*` : p.p === "all" ? "ANY" : this.expr(p.expr))).join(", ")}}`;
      case "interval":
        return `INTERVAL ${this.expr(x.value)} ${x.unit}`;
    }
  }
}

function constText(v: unknown, type?: string): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "bigint") return type === "UINT" ? `${v}u` : type === "DATETIME" ? `dt(${v})` : String(v);
  if (typeof v === "number") return type === "FLOAT" ? `${v}f` : Number.isInteger(v) ? `${v}.0` : String(v);
  return String(v);
}
