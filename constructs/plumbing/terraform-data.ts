/**
 * The built-in `terraform_data` resource, with the arguments metalslice sets (`input`, `triggers_replace`, and the
 * meta-arguments). metalslice's uses: a pool's roll (parts/node-rollout.ts) and each pair of drain blocks
 * (parts/node-drain.ts).
 *
 * Not cdktf's `DataResource`, which writes the same JSON but checks the binary's version at synth by running
 * `<terraform binary> version` once per resource: with sixteen pairs of drain blocks in every stack, 6,632 runs
 * for a 10,000-VM fleet laid out a stack per pool (about 60 ms each on 2 cores: nearly all of a six-minute synth).
 * What the check guarded (OpenTofu 1.4 or later) is below what the stacks need anyway: an OpenTofu too old for
 * their `moved` and `removed` blocks refuses the configuration itself when it loads it.
 */
import { anyToHclTerraform, anyToTerraform, hashMapper, hashMapperHcl, TerraformMetaArguments, TerraformResource } from 'cdktf';
import { Construct } from 'constructs';

/** A `terraform_data` resource's arguments. */
export interface TerraformDataConfig extends TerraformMetaArguments {
  /** Stored in the state and shown as `output` after apply; provisioners read it as `self.input`. */
  readonly input?: Record<string, unknown>;
  /** A change of any of these values replaces the resource (and runs its create-time provisioners again). */
  readonly triggersReplace?: Record<string, unknown>;
}

/** A `terraform_data` resource (OpenTofu's built-in provider), with no check run at synth. */
export class TerraformData extends TerraformResource {
  private readonly input?: Record<string, unknown>;
  private readonly triggersReplace?: Record<string, unknown>;

  constructor(scope: Construct, id: string, config: TerraformDataConfig = {}) {
    const { input, triggersReplace, ...meta } = config;
    super(scope, id, { terraformResourceType: 'terraform_data', terraformGeneratorMetadata: { providerName: 'terraform' }, ...meta });
    this.input = input;
    this.triggersReplace = triggersReplace;
  }

  protected synthesizeAttributes(): Record<string, unknown> {
    return { input: hashMapper(anyToTerraform)(this.input), triggers_replace: hashMapper(anyToTerraform)(this.triggersReplace) };
  }

  protected synthesizeHclAttributes(): Record<string, unknown> {
    return { input: hashMapperHcl(anyToHclTerraform)(this.input), triggers_replace: hashMapperHcl(anyToHclTerraform)(this.triggersReplace) };
  }
}
