/**
 * The baseline the benchmark and tests compare against: plain first fit decreasing by the sum of
 * normalised sizes.
 */
import { firstFitDecreasing } from './constructive';
import { canonicalBins, toProblem } from './problem';
import { PackingInstance } from './types';

export function firstFitDecreasingPacking(instance: PackingInstance): { bins: number; binOf: number[] } {
  return canonicalBins(firstFitDecreasing(toProblem(instance)).binOf);
}
