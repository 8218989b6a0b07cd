/**
 * OsImage: vCluster Platform's OSImage, an OS image's provider properties under a name. Node types, providers
 * and claims select it with the property `vcluster.com/os-image`; for Metal3 it carries
 * `metal3.vcluster.com/image-url`, `metal3.vcluster.com/image-checksum` and optionally
 * `metal3.vcluster.com/image-checksum-type`, which the plan writes into the HostClaims of static metal3 pools.
 * It makes nothing by itself.
 */
import { Construct } from 'constructs';
import { IPlanContributor, ModelBuilder } from './capacity-plan';
import { OsImageSpec } from './core/input/model';

/** Props of an OsImage. */
export interface OsImageProps {
  /** @default - the construct id */
  readonly name?: string;
  /** The provider properties the image stands for. */
  readonly properties: Readonly<Record<string, string>>;
}

export class OsImage extends Construct implements IPlanContributor {
  /** The image's name, as `vcluster.com/os-image` names it. */
  readonly imageName: string;
  private readonly spec: OsImageSpec;

  constructor(scope: Construct, id: string, props: OsImageProps) {
    super(scope, id);
    this.imageName = props.name ?? id;
    this.spec = { name: this.imageName, properties: props.properties };
  }

  contributeToPlan(model: ModelBuilder): void {
    model.add('osImages', this.spec, this);
  }
}
