// The processes of a running console server, read from Linux's /proc: the browser tests use them to fail
// a part of the server on purpose (e.g. kill the embedded broker its supervisor must restart), the ingest
// benchmark to measure the broker's share.
import { readdirSync, readFileSync } from 'node:fs';
import type { ServerProcess } from './server-process.ts';

/** The direct children of a process. */
export function childPids(pid: number): number[] {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children = threads.flatMap((thread) => {
    try {
      return readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').trim().split(/\s+/);
    } catch {
      return [];
    }
  });
  return [...new Set(children.filter(Boolean).map(Number))];
}

/** A process's command line, arguments joined by spaces ('' once it is gone). */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/** The embedded MQTT broker's process (`broker-process.ts`, forked by the server), while it runs. */
export function embeddedBrokerPid(server: ServerProcess): number | undefined {
  const serverPid = server.child.pid;
  if (serverPid === undefined) return undefined;
  return childPids(serverPid).find((pid) => commandLine(pid).includes('broker-process'));
}
