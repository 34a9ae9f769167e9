import { balancedColumns, breakpointFor } from './balanced-grid';

describe('balancedColumns', () => {
  it('never leaves a short last row when the count allows it', () => {
    expect(balancedColumns(4)).toEqual([1, 2, 4]);
    expect(balancedColumns(3)).toEqual([1, 3]);
    expect(balancedColumns(6)).toEqual([1, 2, 3]);
    expect(balancedColumns(8)).toEqual([1, 2, 4]);
    expect(balancedColumns(2)).toEqual([1, 2]);
    expect(balancedColumns(1)).toEqual([1]);
  });

  it('respects the maximum number of columns', () => {
    expect(balancedColumns(4, 2)).toEqual([1, 2]);
    expect(balancedColumns(3, 2)).toEqual([1, 2]);
  });

  it('fills rows up to three columns when no column count divides the items', () => {
    expect(balancedColumns(5)).toEqual([1, 2, 3]);
    expect(balancedColumns(7)).toEqual([1, 2, 3]);
  });
});

describe('breakpointFor', () => {
  it('counts the cards, the gaps between them and the page padding', () => {
    expect(breakpointFor(1, 240)).toBe(272);
    expect(breakpointFor(4, 220)).toBe(4 * 220 + 3 * 20 + 32);
  });
});
