// Vertex functions the back end does not compile: the exact INSTALL error each gives (the
// compiled forms are checked end to end in cases/vertex-functions.case).
import { expect } from "chai";
import { closeSharedRuntime, compileGsql, createDatabase } from "./gsql-harness.js";

const DDL = `
CREATE VERTEX P (PRIMARY_ID id STRING, tags LIST<STRING>, age INT)
CREATE DIRECTED EDGE K (FROM P, TO P, hops LIST<INT>, w INT)
CREATE GRAPH G (P, K)
`;

async function installError(body: string): Promise<string> {
  const db = createDatabase(DDL, { vertices: [], edges: [] });
  try {
    await compileGsql(db, `CREATE QUERY q() FOR GRAPH G SYNTAX V1 { SumAccum<INT> @@n; S = {P.*}; S = SELECT s FROM S:s POST-ACCUM ${body}; PRINT @@n; }`);
  } catch (e) {
    return (e as Error).message;
  }
  return "compiled";
}

describe("vertex functions not compiled", function () {
  this.timeout(30000);
  after(closeSharedRuntime);

  it("neighborAttribute() and edgeAttribute() of collection attributes", async () => {
    expect(await installError('@@n += s.neighborAttribute("K", "P", "tags").size()')).to.equal(
      "not supported by this version of the compiler: neighborAttribute() of a collection or tuple attribute",
    );
    expect(await installError('@@n += s.edgeAttribute("K", "hops").size()')).to.equal("not supported by this version of the compiler: edgeAttribute() of a collection or tuple attribute");
    // the scalar attributes of the same types compile
    expect(await installError('@@n += s.neighborAttribute("K", "P", "age").size() + s.edgeAttribute("K", "w").filter(K.w > 1).size()')).to.equal("compiled");
  });
});
