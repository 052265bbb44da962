// V8 heap settings for a serving process, applied once when the server starts.
//
// Allocation-site pretenuring is turned off. V8 allocates objects straight into the old
// generation once objects from the same allocation site were seen to survive; during a bulk
// upsert a request lives as long as its body takes to arrive and be applied, so the sites of
// every request's objects (Koa's context, node:http's request and response, our routes'
// objects) get marked that way. Every later request then put its short-lived objects into
// the old generation, where only full collections free them and each young collection
// copied megabytes: measured after loading 4M edges through POST /graph, a GET vertex by id
// cost 44-47 us of server CPU with pretenuring and 26-30 us without (2.7 MB vs 7-60 KB
// surviving each young collection). Bulk upserts run no slower without it.
import v8 from "node:v8";

let applied = false;

export function tuneHeapForServing(): void {
  if (applied) return;
  applied = true;
  v8.setFlagsFromString("--no-allocation-site-pretenuring");
}
