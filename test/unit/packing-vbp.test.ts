import { describe, expect, it } from '@jest/globals';
import { clampNegativeSizes, parseVbp } from '../../constructs/core/packing';

const SMALL = ['3', '100 100 100', '3', '99 11 25 1', '76 5 7 2', '10 82 1 1', ''].join('\n');

describe('parseVbp', () => {
  it('reads capacities and expands item types by their demand, in file order', () => {
    expect(parseVbp(SMALL)).toEqual({
      capacity: [100, 100, 100],
      items: [
        [99, 11, 25],
        [76, 5, 7],
        [76, 5, 7],
        [10, 82, 1],
      ],
    });
  });

  it('tolerates blank lines, tabs, extra spaces and CRLF line ends', () => {
    const messy = '\r\n 3 \r\n100\t100  100\r\n\r\n3\r\n99 11 25 1\r\n  76 5 7 2\r\n10 82 1 1';
    expect(parseVbp(messy)).toEqual(parseVbp(SMALL));
  });

  it('drops item types with demand 0', () => {
    expect(parseVbp('1\n10\n2\n5 0\n4 1\n').items).toEqual([[4]]);
  });

  it('names the line and what it expected when an item line is short', () => {
    const bad = ['3', '100 100 100', '20', '99 11', '76 5 7 1'].join('\n');
    expect(() => parseVbp(bad)).toThrow('line 4: expected 4 integers (3 sizes and a demand), got 2 fields');
  });

  it('rejects an item larger than the bin, naming the item line', () => {
    const bad = ['2', '100 50', '2', '10 10 1', '20 60 1'].join('\n');
    expect(() => parseVbp(bad)).toThrow(/^line 5: item type 2 needs 60 in dimension 2 but the bin capacity \(line 2\) is 50/);
  });

  it.each([
    ['an empty file', '', 'line 1: expected the number of dimensions (one integer), got the end of the file'],
    ['a missing item line', '1\n10\n2\n5 1\n', 'line 5: expected 2 integers (1 sizes and a demand), got the end of the file'],
    ['a word instead of a number', '2\n10 ten\n', 'line 2: expected 2 bin capacities (non-negative integers), got 2 fields'],
    ['a fraction', '1\n10\n1\n2.5 1\n', 'line 4: expected 2 integers (1 sizes and a demand), got 2 fields'],
    ['a negative demand', '1\n10\n1\n2 -1\n', 'line 4: expected 2 integers (1 sizes and a demand), got 2 fields (negative)'],
    ['a negative capacity', '1\n-10\n', 'line 2: expected 1 bin capacities (non-negative integers), got 1 field (negative)'],
    ['zero dimensions', '0\n', 'line 1: the number of dimensions must be at least 1, got 0'],
    ['trailing content', '1\n10\n1\n2 1\n3 1\n', 'line 5: expected the end of the file after 1 item types, got more lines'],
    ['a number beyond 2^53', '1\n99999999999999999999\n', 'line 2: field 1 is too large'],
  ])('rejects %s with the line number', (_what, text, message) => {
    expect(() => parseVbp(text)).toThrow(message);
  });

  it('keeps negative item sizes as written, and clampNegativeSizes raises them to zero', () => {
    const parsed = parseVbp('2\n10 10\n2\n5 -2 1\n4 4 1\n');
    expect(parsed.items).toEqual([
      [5, -2],
      [4, 4],
    ]);
    expect(clampNegativeSizes(parsed)).toEqual({
      capacity: [10, 10],
      items: [
        [5, 0],
        [4, 4],
      ],
      clamped: 1,
    });
  });
});
