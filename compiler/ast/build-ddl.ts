// Builds schema DDL nodes: CREATE VERTEX / EDGE / GRAPH, TYPEDEF TUPLE, DROP, USE, and
// schema-change jobs with their ADD / DROP / ALTER statements.
import * as P from "../parse/generated/GSQLParser.js";
import { GSQLParserVisitor } from "../parse/generated/GSQLParserVisitor.js";
import type { AstBuilder } from "./build-ast.js";
import type { AstAllNames, AstIdent } from "./node.js";
import type { AstExpr } from "./expressions.js";
import type {
  AstAttributeDef, AstCreateEdge, AstCreateGraph, AstCreateSchemaChangeJob, AstCreateVertex, AstDrop, AstDropTarget,
  AstEdgeDefinition, AstEdgePair, AstOption, AstRunSchemaChangeJob, AstSchemaChangeStatement, AstVertexDefinition,
} from "./ddl.js";
import type { AstTypedefTuple } from "./statements.js";

type VertexBody = Omit<AstVertexDefinition, "kind" | "range">;
type EdgeBody = Omit<AstEdgeDefinition, "kind" | "range">;

export class DdlBuilder extends GSQLParserVisitor<AstSchemaChangeStatement> {
  constructor(private readonly b: AstBuilder) {
    super();
  }

  createVertex(ctx: P.CreateVertexContext): AstCreateVertex {
    return { kind: "CreateVertex", ...this.vertexBody(ctx.identifier(), ctx.vertexElement(), ctx.withOptions()), range: this.b.range(ctx) };
  }

  private vertexBody(name: P.IdentifierContext, elements: P.VertexElementContext[], options: P.WithOptionsContext | null): VertexBody {
    const body: VertexBody = { name: this.b.ident(name), attributes: [], options: this.withOptions(options) };
    for (const element of elements) {
      if (element instanceof P.PrimaryIdElementContext) {
        body.primaryId = {
          kind: "PrimaryId", name: this.b.ident(element.identifier()), type: this.b.types.type(element.dataType()), range: this.b.range(element),
        };
      } else if (element instanceof P.CompositeKeyElementContext) {
        body.compositeKey = this.names(element.nameList());
      } else {
        body.attributes.push(this.attributeDef((element as P.AttributeElementContext).attributeDef()));
      }
    }
    return body;
  }

  attributeDef(ctx: P.AttributeDefContext): AstAttributeDef {
    const node: AstAttributeDef = {
      kind: "AttributeDef", name: this.b.ident(ctx.identifier()), type: this.b.types.type(ctx.dataType()),
      primaryKey: ctx.PRIMARY() !== null, range: this.b.range(ctx),
    };
    const value = ctx.defaultValue();
    if (value !== null) node.default = this.literalValue(value, value.DASH() !== null);
    return node;
  }

  /** A literal written in DDL (DEFAULT, WITH options): numbers, strings, TRUE/FALSE, bare words. */
  private literalValue(ctx: P.DefaultValueContext | P.OptionValueContext, negative: boolean): AstExpr {
    const range = this.b.range(ctx);
    const sign = negative ? "-" : "";
    const int = ctx.INT_LIT();
    if (int !== null) return { kind: "IntLiteral", text: sign + this.b.word(int), range };
    const real = ctx.REAL_LIT();
    if (real !== null) return { kind: "RealLiteral", text: sign + this.b.word(real), range };
    const str = ctx.STRING_LIT();
    if (str !== null) return this.b.stringLiteral(str);
    if (ctx.TRUE() !== null || ctx.FALSE() !== null) return { kind: "BoolLiteral", value: ctx.TRUE() !== null, range };
    return this.b.ident((ctx as P.OptionValueContext).identifier()!);
  }

  withOptions(ctx: P.WithOptionsContext | null): AstOption[] {
    return ctx === null ? [] : ctx.option().map((o) => this.option(o));
  }

  option(ctx: P.OptionContext): AstOption {
    const value = ctx.optionValue();
    return { kind: "Option", name: this.b.ident(ctx.identifier()), value: this.optionValue(value), range: this.b.range(ctx) };
  }

  optionValue(ctx: P.OptionValueContext): AstExpr {
    return this.literalValue(ctx, ctx.DASH() !== null);
  }

  createEdge(ctx: P.CreateEdgeContext): AstCreateEdge {
    return {
      kind: "CreateEdge",
      ...this.edgeBody(ctx.DIRECTED() !== null, ctx.identifier(), ctx.edgePairs(), ctx.edgeElement(), ctx.withOptions()),
      range: this.b.range(ctx),
    };
  }

  private edgeBody(directed: boolean, name: P.IdentifierContext, pairs: P.EdgePairsContext, elements: P.EdgeElementContext[],
    options: P.WithOptionsContext | null): EdgeBody {
    const body: EdgeBody = {
      directed, name: this.b.ident(name), pairs: this.edgePairs(pairs), discriminator: [], attributes: [],
      options: this.withOptions(options),
    };
    for (const element of elements) {
      if (element instanceof P.DiscriminatorElementContext) {
        body.discriminator.push(...element.attributeDef().map((a) => this.attributeDef(a)));
      } else {
        body.attributes.push(this.attributeDef((element as P.EdgeAttributeElementContext).attributeDef()));
      }
    }
    return body;
  }

  private edgePairs(ctx: P.EdgePairsContext): AstEdgePair[] {
    return ctx.edgePair().map((pair) => {
      const [from, to] = pair.endpointTypes();
      return { kind: "EdgePair", from: this.endpoints(from!), to: this.endpoints(to!), range: this.b.range(pair) };
    });
  }

  private endpoints(ctx: P.EndpointTypesContext): (AstIdent | AstAllNames)[] {
    if (ctx.STAR() !== null) return [{ kind: "AllNames", spelling: "*", range: this.b.range(ctx) }];
    return ctx.identifier().map((id) => this.b.ident(id));
  }

  createGraph(ctx: P.CreateGraphContext): AstCreateGraph {
    const [name, admin] = ctx.identifier();
    const node: AstCreateGraph = {
      kind: "CreateGraph", name: this.b.ident(name!), types: this.names(ctx.nameList()), allTypes: ctx.STAR() !== null,
      range: this.b.range(ctx),
    };
    if (admin !== undefined) node.admin = this.b.ident(admin);
    return node;
  }

  typedefTuple(ctx: P.TypedefTupleContext): AstTypedefTuple {
    return {
      kind: "TypedefTuple", name: this.b.ident(ctx.identifier()), fields: ctx.tupleField().map((f) => this.b.types.tupleField(f)),
      range: this.b.range(ctx),
    };
  }

  drop(ctx: P.DropStatementContext): AstDrop {
    const range = this.b.range(ctx);
    const node = (target: AstDropTarget, names: AstIdent[] = [], all?: AstAllNames, cascade = false): AstDrop => {
      const drop: AstDrop = { kind: "Drop", target, names, cascade, range };
      if (all !== undefined) drop.all = all;
      return drop;
    };
    const targetOf = (c: P.DropStatementContext) => this.b.word(c.getChild(1)!).toUpperCase() as AstDropTarget;
    if (ctx instanceof P.DropTypesContext || ctx instanceof P.DropJobOrQueryContext) {
      const all = ctx.allNames();
      return node(targetOf(ctx), this.names(ctx.nameList()), all === null ? undefined : this.b.allNames(all));
    }
    if (ctx instanceof P.DropGraphContext) return node("GRAPH", [this.b.ident(ctx.identifier())], undefined, ctx.CASCADE() !== null);
    if (ctx instanceof P.DropUserOrRoleContext) return node(targetOf(ctx), this.names(ctx.nameList()));
    if (ctx instanceof P.DropSecretContext) {
      const words = ctx.wordSequence();
      return node("SECRET", [{ kind: "Ident", name: this.b.joinedWords(words), range: this.b.range(words) }]);
    }
    return node("ALL");
  }

  names(ctx: P.NameListContext | null): AstIdent[] {
    return ctx === null ? [] : ctx.identifier().map((id) => this.b.ident(id));
  }

  // --- schema-change jobs ------------------------------------------------------------------

  createSchemaChangeJob(ctx: P.CreateSchemaChangeJobContext): AstCreateSchemaChangeJob {
    const [name, graph] = ctx.identifier();
    const node: AstCreateSchemaChangeJob = {
      kind: "CreateSchemaChangeJob", global: ctx.GLOBAL() !== null, name: this.b.ident(name!),
      statements: ctx.schemaChangeStatement().map((s) => s.accept(this)!), range: this.b.range(ctx),
    };
    if (graph !== undefined) node.graph = this.b.ident(graph);
    return node;
  }

  override visitAddVertex = (ctx: P.AddVertexContext): AstSchemaChangeStatement =>
    ({ kind: "AddVertex", ...this.vertexBody(ctx.identifier(), ctx.vertexElement(), ctx.withOptions()), range: this.b.range(ctx) });

  override visitAddEdge = (ctx: P.AddEdgeContext): AstSchemaChangeStatement => ({
    kind: "AddEdge", ...this.edgeBody(ctx.DIRECTED() !== null, ctx.identifier(), ctx.edgePairs(), ctx.edgeElement(), ctx.withOptions()),
    range: this.b.range(ctx),
  });

  override visitAddToGraph = (ctx: P.AddToGraphContext): AstSchemaChangeStatement => ({
    kind: "AddToGraph", target: ctx.VERTEX() !== null ? "VERTEX" : "EDGE", names: this.names(ctx.nameList()),
    graph: this.b.ident(ctx.identifier()), range: this.b.range(ctx),
  });

  override visitDropInJob = (ctx: P.DropInJobContext): AstSchemaChangeStatement => {
    const node: AstSchemaChangeStatement = {
      kind: "DropInJob", target: this.b.word(ctx.getChild(1)!).toUpperCase() as "VERTEX" | "EDGE" | "TUPLE",
      names: this.names(ctx.nameList()), range: this.b.range(ctx),
    };
    const graph = ctx.identifier();
    if (graph !== null) node.fromGraph = this.b.ident(graph);
    return node;
  };

  override visitAlterAddAttributes = (ctx: P.AlterAddAttributesContext): AstSchemaChangeStatement => ({
    kind: "AlterAddAttributes", target: ctx.VERTEX() !== null ? "VERTEX" : "EDGE", typeName: this.b.ident(ctx.identifier()),
    attributes: ctx.attributeDef().map((a) => this.attributeDef(a)), range: this.b.range(ctx),
  });

  override visitAlterDropAttributes = (ctx: P.AlterDropAttributesContext): AstSchemaChangeStatement => ({
    kind: "AlterDropAttributes", target: ctx.VERTEX() !== null ? "VERTEX" : "EDGE", typeName: this.b.ident(ctx.identifier()),
    names: this.names(ctx.nameList()), range: this.b.range(ctx),
  });

  override visitAlterPairs = (ctx: P.AlterPairsContext): AstSchemaChangeStatement => ({
    kind: "AlterPairs", action: ctx.ADD() !== null ? "ADD" : "DROP", typeName: this.b.ident(ctx.identifier()),
    pairs: this.edgePairs(ctx.edgePairs()), range: this.b.range(ctx),
  });

  override visitAlterAddIndex = (ctx: P.AlterAddIndexContext): AstSchemaChangeStatement => {
    const [typeName, index] = ctx.identifier();
    return {
      kind: "AlterIndex", action: "ADD", target: ctx.VERTEX() !== null ? "VERTEX" : "EDGE", typeName: this.b.ident(typeName!),
      index: this.b.ident(index!), attributes: this.names(ctx.nameList()), range: this.b.range(ctx),
    };
  };

  override visitAlterDropIndex = (ctx: P.AlterDropIndexContext): AstSchemaChangeStatement => {
    const [typeName, index] = ctx.identifier();
    return {
      kind: "AlterIndex", action: "DROP", target: ctx.VERTEX() !== null ? "VERTEX" : "EDGE", typeName: this.b.ident(typeName!),
      index: this.b.ident(index!), attributes: [], range: this.b.range(ctx),
    };
  };

  runSchemaChangeJob(ctx: P.RunSchemaChangeJobContext): AstRunSchemaChangeJob {
    return {
      kind: "RunSchemaChangeJob", global: ctx.GLOBAL() !== null, flags: ctx.flag().map((f) => this.b.flag(f)),
      name: this.b.ident(ctx.identifier()), range: this.b.range(ctx),
    };
  }
}
