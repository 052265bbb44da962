// A whole GSQL text: the top-level statements, in order. Top-level statements need no
// terminator (a trailing `;` is accepted and dropped).
import type { AstNodeBase } from "./node.js";
import type { AstTypedefTuple } from "./statements.js";
import type {
  AstCreateEdge, AstCreateGraph, AstCreateSchemaChangeJob, AstCreateVertex, AstDrop,
  AstRunSchemaChangeJob, AstUseGlobal, AstUseGraph,
} from "./ddl.js";
import type { AstCreateLoadingJob, AstRunLoadingJob } from "./loading.js";
import type { AstCreateQuery, AstInterpretAnonymousQuery } from "./query.js";
import type {
  AstAclGrant, AstAlterAclPassword, AstAlterPassword, AstChangeOwner, AstClearGraphStore, AstCreateRole, AstCreateSecret, AstCreateUser, AstHelp,
  AstInstallQuery, AstInterpretQuery, AstLoadingJobControl, AstLs, AstPrivilegeGrant, AstRoleGrant,
  AstRunQuery, AstSet, AstShellBlock, AstShow,
} from "./shell.js";

export type AstTopStatement =
  | AstCreateVertex
  | AstCreateEdge
  | AstCreateGraph
  | AstTypedefTuple
  | AstDrop
  | AstUseGraph
  | AstUseGlobal
  | AstCreateSchemaChangeJob
  | AstRunSchemaChangeJob
  | AstCreateLoadingJob
  | AstRunLoadingJob
  | AstCreateQuery
  | AstInterpretAnonymousQuery
  | AstInstallQuery
  | AstRunQuery
  | AstInterpretQuery
  | AstShow
  | AstLs
  | AstSet
  | AstCreateSecret
  | AstCreateUser
  | AstAlterPassword
  | AstAlterAclPassword
  | AstChangeOwner
  | AstCreateRole
  | AstRoleGrant
  | AstPrivilegeGrant
  | AstAclGrant
  | AstClearGraphStore
  | AstLoadingJobControl
  | AstHelp
  | AstShellBlock;

/** The root: one file's statements. `range` covers the whole text. */
export interface AstScript extends AstNodeBase {
  kind: "Script";
  statements: AstTopStatement[];
}
