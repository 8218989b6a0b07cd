export * from './types';
export { packBins, packBinsSync, DEFAULT_SYNC_ITERATIONS } from './pack-bins';
export { clampNegativeSizes, parseVbp } from './vbp';
export { PackingInputError, packingViolations } from './problem';
export { firstFitDecreasingPacking } from './baseline';
export { placeOnHosts, placeWithBudget } from './place-on-hosts';
