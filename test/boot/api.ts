// What the boot tests read from the API server (the audit log's events, a Node's status) and how they wait for it.
import { expect } from '@jest/globals';
import * as fs from 'node:fs';
import type { KubeClient } from '../e2e/harness';
import type { Vm } from './qemu';

export interface AuditEvent {
  stage: string;
  verb: string;
  user: { username: string; groups?: string[] };
  objectRef?: { resource?: string; subresource?: string; name?: string; namespace?: string; apiGroup?: string };
  responseStatus?: { code?: number };
  requestObject?: unknown;
  stageTimestamp: string;
}

export interface NodeStatusDoc {
  metadata: { name: string; labels?: Record<string, string> };
  spec: { taints?: { key: string; value?: string; effect: string }[] };
  status: {
    addresses?: { type: string; address: string }[];
    nodeInfo: { kubeletVersion: string; containerRuntimeVersion: string; kernelVersion: string };
    conditions: { type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }[];
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Calls `check` every 2 s until it returns a value (a throw counts as not yet); throws after timeoutMs. */
export async function poll<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined>, context?: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}${context ? `\n${context()}` : ''}`);
    await sleep(2000);
  }
}

/** A bootstrap token's id (6) and secret (16), as kubeadm's token format has them. */
export function randomToken(): { id: string; secret: string } {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const pick = (n: number): string => Array.from({ length: n }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
  return { id: pick(6), secret: pick(16) };
}

/** The audit log's completed requests. */
export function readAudit(file: string): AuditEvent[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AuditEvent)
    .filter((e) => e.stage === 'ResponseComplete');
}

/** How a boot's join ends on the console: joined, refused by the join script, or failed in kubeadm. */
const JOIN_END = /This node has joined the cluster|metalslice: [^\n]*does not join[^\n]*|error execution phase[^\n]*/;

/**
 * A booted node's join, as its console tells it (it must say it joined), then its Node Ready, as the API server has
 * it. Returns the Node and when each happened, in ms after power-on.
 */
export async function joinedAndReady(
  vm: Vm,
  api: KubeClient,
  name: string,
  timeouts: { readonly joinMs: number; readonly readyMs: number },
  context: () => string,
): Promise<{ node: NodeStatusDoc; joinedMs: number; readyMs: number }> {
  const joined = await vm.waitForConsole(JOIN_END, timeouts.joinMs);
  expect(joined.match[0]).toBe('This node has joined the cluster');
  const node = await poll(
    `Node ${name} Ready`,
    timeouts.readyMs,
    async () => {
      const r = await api.get<NodeStatusDoc>(`/api/v1/nodes/${name}`);
      return r.status === 200 && r.body.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? r.body : undefined;
    },
    context,
  );
  return { node, joinedMs: joined.afterMs, readyMs: Date.now() - vm.startedAt };
}
