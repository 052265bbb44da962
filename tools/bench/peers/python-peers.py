"""Python peers of the algorithm-library bench: igraph and NetworkX on the bench's graph.

usage: python3 python-peers.py igraph|networkx GRAPH_FILE SECONDS_LIMIT ALGORITHM...

GRAPH_FILE (written by the bench): uint32 vertex count, uint32 edge count, then the edges'
sources (uint32 each), targets (uint32 each) and weights (float64 each), little-endian; every
edge undirected and listed once. One JSON object per line on stdout: the graph build
({"algorithm": "build", ...}), then per algorithm its seconds and a short result summary, or
a "skipped" reason when the library lacks it or it ran past SECONDS_LIMIT (NetworkX is pure
Python: an algorithm past the limit is stopped and reported as slower than the limit).
"""

import heapq
import json
import signal
import sys
import time

import numpy as np


class OverLimit(Exception):
    pass


class Summary:
    """A result whose description is computed after the timing (e.g. a clustering's modularity)."""

    def __init__(self, value, describe):
        self.value = value
        self.describe = describe


def on_alarm(_signum, _frame):
    raise OverLimit()


def read_graph(path):
    with open(path, "rb") as f:
        n, m = np.frombuffer(f.read(8), dtype="<u4")
        src = np.frombuffer(f.read(4 * int(m)), dtype="<u4")
        dst = np.frombuffer(f.read(4 * int(m)), dtype="<u4")
        w = np.frombuffer(f.read(8 * int(m)), dtype="<f8")
    return int(n), src, dst, w


def top_k(pairs, k=10):
    return heapq.nlargest(k, pairs, key=lambda p: p[1])


def igraph_algorithms(n, src, dst, w):
    import igraph

    t0 = time.perf_counter()
    g = igraph.Graph(n=n, edges=np.column_stack((src, dst)).tolist(), directed=False)
    g.es["w"] = w.tolist()
    build = time.perf_counter() - t0

    def triangles():
        return len(g.list_triangles())

    def jaccard():
        others = [j for j in range(n) if j != 0]
        scores = g.similarity_jaccard(pairs=[(0, j) for j in others])
        return top_k([(j, s) for j, s in zip(others, scores) if s > 0])[0]

    def jaccard_all():
        matrix = g.similarity_jaccard()
        return top_k(((i, j), s) for i, row in enumerate(matrix) for j, s in enumerate(row) if i < j and s > 0)[0]

    algorithms = {
        "pageRank": lambda: max(g.pagerank(damping=0.85)),
        "conn_comp": lambda: len(g.connected_components()),
        "shortest_ss": lambda: len(g.bfs(0)[0]),
        "shortest_path_any_wt": lambda: sum(1 for d in g.distances(source=0, weights="w")[0] if d != float("inf")),
        "tri_count": triangles,
        "label_prop": lambda: len(g.community_label_propagation()),
        "louvain": lambda: Summary(g.community_multilevel(), lambda c: f"{len(c)} communities, modularity {g.modularity(c):.4f}"),
        "jaccard_nbor_ss": jaccard,
        "closeness_cent": lambda: max(c for c in g.closeness() if c == c),
        "jaccard_nbor_ap": jaccard_all,
    }
    return "igraph " + igraph.__version__, build, algorithms


def networkx_algorithms(n, src, dst, w):
    import networkx as nx

    t0 = time.perf_counter()
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_weighted_edges_from(zip(src.tolist(), dst.tolist(), w.tolist()), weight="w")
    build = time.perf_counter() - t0

    def jaccard():
        scores = nx.jaccard_coefficient(g, [(0, j) for j in range(1, n)])
        return top_k([(v, s) for _, v, s in scores if s > 0])[0]

    def jaccard_all():
        scores = nx.jaccard_coefficient(g, ((i, j) for i in range(n) for j in range(i + 1, n)))
        return top_k(((u, v), s) for u, v, s in scores if s > 0)[0]

    algorithms = {
        "pageRank": lambda: max(nx.pagerank(g, alpha=0.85).values()),
        "conn_comp": lambda: nx.number_connected_components(g),
        "shortest_ss": lambda: len(nx.single_source_shortest_path(g, 0)),
        "shortest_path_any_wt": lambda: len(nx.single_source_bellman_ford(g, 0, weight="w")[0]),
        "tri_count": lambda: sum(nx.triangles(g).values()) // 3,
        "label_prop": lambda: sum(1 for _ in nx.community.asyn_lpa_communities(g, seed=1)),
        "louvain": lambda: Summary(nx.community.louvain_communities(g, seed=1), lambda c: f"{len(c)} communities, modularity {nx.community.modularity(g, c):.4f}"),
        "jaccard_nbor_ss": jaccard,
        "closeness_cent": lambda: max(nx.closeness_centrality(g).values()),
        "jaccard_nbor_ap": jaccard_all,
    }
    return "networkx " + nx.__version__, build, algorithms


def main(argv):
    library, path, limit = argv[1], argv[2], int(argv[3])
    wanted = argv[4:]
    n, src, dst, w = read_graph(path)
    make = {"igraph": igraph_algorithms, "networkx": networkx_algorithms}[library]
    name, build, algorithms = make(n, src, dst, w)
    print(json.dumps({"algorithm": "build", "library": name, "seconds": build}), flush=True)
    signal.signal(signal.SIGALRM, on_alarm)
    for algorithm in wanted:
        if algorithm not in algorithms:
            print(json.dumps({"algorithm": algorithm, "skipped": f"{name} has no such algorithm"}), flush=True)
            continue
        signal.alarm(limit)
        t0 = time.perf_counter()
        try:
            result = algorithms[algorithm]()
            seconds = time.perf_counter() - t0
            signal.alarm(0)
            text = result.describe(result.value) if isinstance(result, Summary) else str(result)
            print(json.dumps({"algorithm": algorithm, "seconds": seconds, "result": text}), flush=True)
        except OverLimit:
            print(json.dumps({"algorithm": algorithm, "overLimit": limit}), flush=True)


if __name__ == "__main__":
    main(sys.argv)
