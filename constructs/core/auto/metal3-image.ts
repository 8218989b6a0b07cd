/**
 * The OS image Metal3 writes to the hosts of a static pool on a metal3 provider, taken from where vCluster
 * Platform's Metal3 provider takes it: the properties `metal3.vcluster.com/image-url`, `image-checksum` and
 * `image-checksum-type` (the claim's over the node type's over the provider's), where `vcluster.com/os-image`
 * at any level stands for the properties of the OSImage it names (the level's own properties over them).
 * A pool whose image cannot be found is an error naming where to set it: a HostClaim cannot be written
 * without one.
 */
import { childPath, PlanIssue } from '../base/errors';
import { describeValue } from '../base/excerpt';
import { hostImageProblem } from '../hosts/os-image';
import { HostImage, OsImageSpec } from '../input/model';
import type { PropertyLevel } from '../vm/properties';

const METAL3 = 'metal3.vcluster.com/';
/** The URL Ironic downloads the OS image from. */
export const METAL3_IMAGE_URL = `${METAL3}image-url`;
/** The image's digest, or the URL of a checksum file. */
export const METAL3_IMAGE_CHECKSUM = `${METAL3}image-checksum`;
/** md5, sha256 or sha512; detected from the checksum when unset. */
export const METAL3_IMAGE_CHECKSUM_TYPE = `${METAL3}image-checksum-type`;
/** Names a vCluster Platform OSImage whose properties carry the image. */
export const OS_IMAGE_PROPERTY = 'vcluster.com/os-image';

const CHECKSUM_TYPES: readonly string[] = ['md5', 'sha256', 'sha512'];

/** The OS images of the model by name, each with the path it was written at. */
export type OsImages = ReadonlyMap<string, { readonly spec: OsImageSpec; readonly path: string }>;

/** Where the pool's image could be set, for the error that says none was. */
export interface ImagePlaces {
  /** The pool, as the error names it (`static pool gpus on metal3 provider metal`). */
  readonly pool: string;
  /** Where the pool's path points. */
  readonly at: string;
  /** The properties the claim, the node type and the provider carry, most specific first. */
  readonly properties: readonly string[];
}

/** The OS images by name; a name given twice is an issue at the second. */
export function osImagesByName(
  images: readonly OsImageSpec[],
  pathOf: (index: number) => string,
  issues: PlanIssue[],
): Map<string, { spec: OsImageSpec; path: string }> {
  const out = new Map<string, { spec: OsImageSpec; path: string }>();
  images.forEach((spec, i) => {
    const path = pathOf(i);
    if (out.has(spec.name))
      issues.push({
        path: childPath(path, 'name'),
        message: `OS image "${spec.name}" is already defined at ${out.get(spec.name)!.path}: names must be unique`,
      });
    else out.set(spec.name, { spec, path });
  });
  return out;
}

type Found = { value: string; path: string };
const IMAGE_KEYS = [METAL3_IMAGE_URL, METAL3_IMAGE_CHECKSUM, METAL3_IMAGE_CHECKSUM_TYPE];

/**
 * The image properties as vCluster Platform resolves them: level by level, least specific first, an OSImage a
 * level names stands in that level under the level's own properties; an OSImage this config does not have
 * hides what the levels below it said (it would replace them).
 */
function imageProperties(levels: readonly PropertyLevel[], osImages: OsImages): { found: Map<string, Found>; unknown?: Found } {
  const found = new Map<string, Found>();
  let unknown: Found | undefined;
  for (const level of levels) {
    const named = level.properties?.[OS_IMAGE_PROPERTY];
    if (named !== undefined) {
      const image = osImages.get(named);
      if (image === undefined) {
        unknown = { value: named, path: childPath(level.path, OS_IMAGE_PROPERTY) };
        for (const key of IMAGE_KEYS) found.delete(key);
      } else {
        unknown = undefined;
        for (const key of IMAGE_KEYS) {
          const value = image.spec.properties[key];
          if (value !== undefined) found.set(key, { value, path: childPath(childPath(image.path, 'properties'), key) });
        }
      }
    }
    for (const key of IMAGE_KEYS) {
      const value = level.properties?.[key];
      if (value !== undefined) found.set(key, { value, path: childPath(level.path, key) });
    }
  }
  return { found, unknown };
}

/** The image of a static metal3 pool, or undefined with an issue saying what is missing and where to set it. */
export function metal3ImageOf(levels: readonly PropertyLevel[], osImages: OsImages, places: ImagePlaces, issues: PlanIssue[]): HostImage | undefined {
  const { found, unknown } = imageProperties(levels, osImages);
  const url = found.get(METAL3_IMAGE_URL);
  const checksum = found.get(METAL3_IMAGE_CHECKSUM);
  const checksumType = found.get(METAL3_IMAGE_CHECKSUM_TYPE);
  if (unknown !== undefined && (url === undefined || checksum === undefined)) {
    const known = [...osImages.keys()];
    issues.push({
      path: unknown.path,
      message: `${places.pool}: OSImage ${describeValue(unknown.value)} is not in this config (it may be defined in vCluster Platform), and the plan needs its ${METAL3_IMAGE_URL} and ${METAL3_IMAGE_CHECKSUM} to write each HostClaim: add it under osImages ({name, properties})${known.length > 0 ? ` (known: ${known.join(', ')})` : ''}, or set those properties`,
    });
    return undefined;
  }
  if (url === undefined) {
    issues.push({
      path: places.at,
      message: `${places.pool}: no OS image for its hosts, and a HostClaim needs one: set ${METAL3_IMAGE_URL} and ${METAL3_IMAGE_CHECKSUM} (or ${OS_IMAGE_PROPERTY} naming an osImages entry) in ${places.properties.join(', or ')}`,
    });
    return undefined;
  }
  if (checksumType !== undefined && !CHECKSUM_TYPES.includes(checksumType.value)) {
    issues.push({
      path: checksumType.path,
      message: `checksum type ${describeValue(checksumType.value)} is not one Metal3 takes: use md5, sha256 or sha512, or leave it out`,
    });
    return undefined;
  }
  const image: HostImage = {
    url: url.value,
    checksum: checksum?.value ?? '',
    ...(checksumType !== undefined ? { checksumType: checksumType.value as HostImage['checksumType'] } : {}),
  };
  const problem = hostImageProblem(image);
  if (problem !== undefined) {
    const at = problem.startsWith('image.checksum') ? (checksum?.path ?? url.path) : url.path;
    issues.push({ path: at, message: `${places.pool}: ${problem}` });
    return undefined;
  }
  return image;
}
