export * from './types';
export { packBins, packBinsSync, DEFAULT_SYNC_ITERATIONS } from './pack-bins';
export { clampNegativeSizes, parseVbp } from './vbp';
export { PackingInputError, packingViolations } from './problem';
export { firstFitDecreasingPacking } from './baseline';
export { placeOnHosts } from './place-on-hosts';
