/**
 * The OS image a Metal3 HostClaim writes to a host: the one owner of what an image may be. Ironic downloads
 * the URL, so it must be a remote http(s) (or OCI registry) URL: a `file://` URL reads the conductor's own
 * files (`file:///etc/shadow`). The checksum is the image's hex digest, or an http(s) URL of a checksum file.
 */
import { describeValue } from '../base/excerpt';
import { HostImage } from '../input/model';

/** Hex digits of each checksum type's digest. */
const DIGEST_HEX_DIGITS: Record<NonNullable<HostImage['checksumType']>, number> = { md5: 32, sha256: 64, sha512: 128 };

const REMOTE_URL = /^(https?|oci):\/\/[^\s/]+\S*$/;
const HTTP_URL = /^https?:\/\/[^\s/]+\S*$/;

/** Why a checksum is neither a hex digest (of its type's length, when given) nor an http(s) URL, or undefined. */
function checksumProblem(image: HostImage): string | undefined {
  const checksum = image.checksum;
  if (typeof checksum !== 'string' || HTTP_URL.test(checksum)) return undefined;
  const digits = image.checksumType !== undefined ? DIGEST_HEX_DIGITS[image.checksumType] : undefined;
  const hex =
    /^[0-9a-fA-F]+$/.test(checksum) && (digits === undefined ? Object.values(DIGEST_HEX_DIGITS).includes(checksum.length) : checksum.length === digits);
  if (hex) return undefined;
  const want = digits !== undefined ? `the image's ${image.checksumType} digest (${digits} hex digits)` : "the image's md5, sha256 or sha512 digest in hex";
  return `image.checksum must be ${want} or an http(s) URL of a checksum file (got ${describeValue(checksum)})`;
}

/** Why an image cannot be written to a host, or undefined when it can. */
export function hostImageProblem(image: HostImage | undefined): string | undefined {
  if (!image || typeof image.url !== 'string' || !REMOTE_URL.test(image.url)) {
    return `image.url must be an http(s) or oci URL of the OS image that Ironic downloads (got ${describeValue(image?.url)}); a file:// URL would read the conductor's own files`;
  }
  const needsChecksum = image.format !== 'live-iso' && !image.url.startsWith('oci://');
  if (needsChecksum && !image.checksum)
    return `image.checksum is required for ${image.format ?? 'disk'} images: give the image's sha256 (or a URL of its checksum file)`;
  return image.checksum ? checksumProblem(image) : undefined;
}
