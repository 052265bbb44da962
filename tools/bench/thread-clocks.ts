// Where a timed stretch of the bench process spent its time, from Linux's scheduler counters:
// each thread's time on a processor and time waiting for one (/proc/self/task/*/schedstat,
// nanoseconds), and the machine's processor time used by other processes and stolen by the
// hypervisor (/proc/stat). On a shared machine this tells a slow run caused by the code
// (the busiest thread was on a processor the whole time) from one caused by other work (it
// waited in the run queue, or others kept every core busy; or it was in the kernel, e.g. on
// page faults). Empty figures off Linux.
import { readdirSync, readFileSync } from "node:fs";

export interface ClockReading {
  /** Thread id -> [on-processor ns, run-queue wait ns, system-mode ticks]. */
  threads: Map<string, [number, number, number]>;
  /** This process's minor page faults (first touches of memory, every thread). */
  minorFaults: number;
  /** Machine-wide processor time in clock ticks (100 a second): busy (all states but idle/iowait), steal. */
  busyTicks: number;
  stealTicks: number;
  /** This process's own user+system ticks. */
  ownTicks: number;
  at: number;
}

export function readClocks(): ClockReading {
  const threads = new Map<string, [number, number, number]>();
  let minorFaults = 0;
  let busyTicks = 0;
  let stealTicks = 0;
  let ownTicks = 0;
  try {
    for (const tid of readdirSync("/proc/self/task")) {
      try {
        const [run, wait] = readFileSync(`/proc/self/task/${tid}/schedstat`, "utf8").trim().split(" ").map(Number);
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
        threads.set(tid, [run, wait, Number(stat[12])]);
      } catch {
        /* the thread ended meanwhile */
      }
    }
    // cpu user nice system idle iowait irq softirq steal guest guest_nice
    const cpu = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
    busyTicks = cpu[0] + cpu[1] + cpu[2] + cpu[5] + cpu[6];
    stealTicks = cpu[7];
    const own = readFileSync("/proc/self/stat", "utf8").replace(/^.*\) /, "").split(" ");
    ownTicks = Number(own[11]) + Number(own[12]);
    minorFaults = Number(own[7]);
  } catch {
    /* not Linux */
  }
  return { threads, minorFaults, busyTicks, stealTicks, ownTicks, at: performance.now() };
}

/**
 * One line on the stretch between two readings: the busiest thread's time on a processor and
 * in the run queue, processor seconds other processes used, seconds stolen, load average.
 */
export function describeClocks(before: ClockReading, after: ClockReading, loadAverage: number): string {
  if (after.threads.size === 0) return "";
  let busiest: [number, number, number] = [0, 0, 0];
  for (const [tid, [run, wait, system]] of after.threads) {
    const [run0, wait0, system0] = before.threads.get(tid) ?? [0, 0, 0];
    if (run - run0 > busiest[0]) busiest = [run - run0, wait - wait0, system - system0];
  }
  const wall = (after.at - before.at) / 1000;
  const others = (after.busyTicks - before.busyTicks - (after.ownTicks - before.ownTicks)) / 100;
  const steal = (after.stealTicks - before.stealTicks) / 100;
  return `wall ${wall.toFixed(3)} s: busiest thread on CPU ${(busiest[0] / 1e9).toFixed(3)} s (${(busiest[2] / 100).toFixed(2)} s in the kernel), waiting ${(busiest[1] / 1e9).toFixed(3)} s; other processes ${others.toFixed(2)} CPU s, steal ${steal.toFixed(2)} s, ${after.minorFaults - before.minorFaults} page faults, load ${loadAverage.toFixed(2)}`;
}
