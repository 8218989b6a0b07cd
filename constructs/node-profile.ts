/**
 * NodeProfile: vCluster Platform's named set of node labels and taints, selected by a pool's `profile` or
 * a vcluster.yaml's `privateNodes.defaultProfile`. It makes nothing by itself: the plan merges it into the
 * nodes of the pools that select it (the pool's own labels and taints win).
 */
import { Construct } from 'constructs';
import { IPlanContributor, ModelBuilder } from './capacity-plan';
import { NodeProfileSpec, Taint } from './core/input/model';
import { PlanIssue } from './core/base/errors';

/** Props of a NodeProfile. */
export interface NodeProfileProps {
  /** @default - the construct id */
  readonly name?: string;
  /** Labels every node of the selecting pools gets. @default - none */
  readonly nodeLabels?: Readonly<Record<string, string>>;
  /** Taints every node of the selecting pools registers with. @default - none */
  readonly taints?: readonly Taint[];
}

export class NodeProfile extends Construct implements IPlanContributor {
  /** The profile's name, as pools name it in `profile`. */
  readonly profileName: string;
  private readonly spec: NodeProfileSpec;

  constructor(scope: Construct, id: string, props: NodeProfileProps = {}) {
    super(scope, id);
    this.profileName = props.name ?? id;
    this.spec = { name: this.profileName, ...(props.nodeLabels ? { nodeLabels: props.nodeLabels } : {}), ...(props.taints ? { taints: props.taints } : {}) };
  }

  contributeToPlan(model: ModelBuilder): void {
    model.add('nodeProfiles', this.spec, this);
  }
}

/** Warnings the config loader found (e.g. vcluster.yaml fields that change nothing), carried into the synth plan. */
export class ConfigWarnings extends Construct implements IPlanContributor {
  constructor(
    scope: Construct,
    id: string,
    private readonly warnings: readonly PlanIssue[],
  ) {
    super(scope, id);
  }

  contributeToPlan(model: ModelBuilder): void {
    for (const w of this.warnings) model.add('readWarnings', w, this);
  }
}
