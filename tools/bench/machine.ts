// The machine facts every bench report starts with, so figures can be compared fairly.
import { readFileSync } from "node:fs";
import os from "node:os";

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  platform: string;
  node: string;
  date: string;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    date: new Date().toISOString(),
  };
}

export function machineBanner(): string {
  const m = machineInfo();
  return `machine: ${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.platform}, node ${m.node}, ${m.date}`;
}

/** Processor time a process used so far, every thread (Linux /proc), unaffected by other load; undefined elsewhere. */
export function processCpuMillis(pid: number): number | undefined {
  try {
    // Fields 14 and 15 of /proc/PID/stat: user and system time in clock ticks (100 per second).
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * Processor time of this process's finished (waited-for) child processes so far (Linux /proc
 * cutime + cstime); undefined elsewhere. Read before and after a synchronous child run, the
 * difference is that child's CPU time.
 */
export function finishedChildrenCpuMillis(): number | undefined {
  try {
    // Fields 16 and 17 of /proc/self/stat: children's user and system time in clock ticks.
    const fields = readFileSync("/proc/self/stat", "utf8").replace(/^.*\) /, "").split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}
