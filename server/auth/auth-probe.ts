// Whether a running server requires authentication, for tools that talk to it over HTTP
// (the algorithm-library installer prints `Authorization: Bearer` in its curl lines when it
// does): /requesttoken exists only while authentication is on; otherwise it is an unknown
// endpoint (404, REST-1000).

export async function restAuthEnabled(restBaseUrl: string): Promise<boolean> {
  const res = await fetch(`${restBaseUrl.replace(/\/+$/, "")}/requesttoken`, { method: "POST", body: "{}" });
  await res.arrayBuffer();
  return res.status !== 404;
}
