// Properties of the host rules kube-scheduler applies: what a pod requests, and which taints keep a pod away.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { launcherTolerations, toleratesTaint, untoleratedTaint, whyNoVms } from '../../constructs/core/hosts/offer';
import { podRequests } from '../../constructs/core/hosts/inventory';
import { Taint } from '../../constructs/core/input/model';
import { Quantity } from '../../constructs/core/base/quantity';

const millis = fc.integer({ min: 0, max: 64_000 });
const container = fc.record({ cpu: millis, restartPolicy: fc.constantFrom(undefined, 'Always') });
const effect = fc.constantFrom<Taint['effect']>('NoSchedule', 'PreferNoSchedule', 'NoExecute');
const taint = fc.record({ key: fc.constantFrom('a', 'node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable', 'x/y'), effect });

const cpuOf = (containers: { cpu: number; restartPolicy?: string }[], inits: { cpu: number; restartPolicy?: string }[]) =>
  podRequests({
    metadata: { name: 'p' },
    spec: {
      containers: containers.map((c) => ({ resources: { requests: { cpu: `${c.cpu}m` } } })),
      initContainers: inits.map((c) => ({ resources: { requests: { cpu: `${c.cpu}m` } }, ...(c.restartPolicy ? { restartPolicy: c.restartPolicy } : {}) })),
    },
  }).get('cpu') ?? Quantity.ZERO;

describe('pod requests as kube-scheduler sums them (property)', () => {
  it('are at least the containers summed and at least every plain init container, and do not depend on container order', () => {
    fc.assert(
      fc.property(
        fc.array(
          container.map((c) => ({ cpu: c.cpu })),
          { maxLength: 5 },
        ),
        fc.array(container, { maxLength: 5 }),
        (containers, inits) => {
          const total = cpuOf(containers, inits);
          const sum = containers.reduce((t, c) => t + c.cpu, 0);
          expect(Quantity.fromMillis(sum).lte(total)).toBe(true);
          for (const i of inits) if (!i.restartPolicy) expect(Quantity.fromMillis(i.cpu).lte(total)).toBe(true);
          expect(cpuOf([...containers].reverse(), inits).eq(total)).toBe(true);
          // Without sidecars, exactly max(sum of containers, largest init container).
          if (inits.every((i) => !i.restartPolicy)) expect(total.eq(Quantity.fromMillis(Math.max(sum, ...inits.map((i) => i.cpu))))).toBe(true);
        },
      ),
    );
  });
});

describe('taints launcher pods do not tolerate (property)', () => {
  it('a host is refused exactly when one of its NoSchedule or NoExecute taints matches none of the launcher tolerations', () => {
    fc.assert(
      fc.property(fc.array(taint, { maxLength: 4 }), (taints) => {
        const blocking = taints.filter((t) => t.effect !== 'PreferNoSchedule' && !launcherTolerations().some((tol) => toleratesTaint(tol, t)));
        expect(untoleratedTaint(taints, launcherTolerations()) !== undefined).toBe(blocking.length > 0);
        expect(whyNoVms({ taints }) !== undefined).toBe(blocking.length > 0);
        // Only NoExecute taints on the not-ready and unreachable keys are ever tolerated.
        for (const t of taints.filter((x) => !blocking.includes(x) && x.effect !== 'PreferNoSchedule')) {
          expect(t.effect).toBe('NoExecute');
          expect(['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable']).toContain(t.key);
        }
      }),
    );
  });

  it('a NotReady or cordoned host is refused whatever its taints', () => {
    fc.assert(
      fc.property(fc.array(taint, { maxLength: 3 }), fc.boolean(), (taints, cordoned) => {
        expect(whyNoVms({ taints, ready: false, unschedulable: cordoned })).toMatch(/NotReady/);
        expect(whyNoVms({ taints, unschedulable: true })).toMatch(/cordoned/);
      }),
    );
  });
});
