/** The model the constructs under a scope contribute, built as a CapacityPlan covering the scope builds it. */
import { IConstruct } from 'constructs';
import { IPlanContributor, ModelBuilder } from '../../constructs/capacity-plan';

export function contributedModel(scope: IConstruct): ReturnType<ModelBuilder['build']> {
  const builder = new ModelBuilder();
  for (const c of scope.node.findAll())
    if (typeof (c as Partial<IPlanContributor>).contributeToPlan === 'function') (c as IPlanContributor).contributeToPlan(builder);
  return builder.build();
}
