/** The parts of a jest-circus describe block sf-m3 reads. */
export interface DescribeBlockLike {
  readonly name: unknown;
  readonly parent?: DescribeBlockLike;
}

/** The parts of a jest-circus test entry sf-m3 reads and writes. */
export interface TestEntryLike {
  readonly name: unknown;
  readonly parent: DescribeBlockLike;
  /** jest-circus fails the test when this is non-empty at `test_done`. */
  errors: unknown[];
  readonly invocations: number;
  readonly duration?: number | null;
}

/** jest-circus names its root block this; it is not part of any test name. */
const ROOT_BLOCK = 'ROOT_DESCRIBE_BLOCK';

/**
 * The test's describe titles and name joined by spaces, as Jest prints it (`getTestID`), without the
 * titles of blocks `leaveOut` picks.
 */
export function fullNameOf(test: TestEntryLike, leaveOut?: (block: DescribeBlockLike) => boolean): string {
  const titles: string[] = [String(test.name)];
  for (let block: DescribeBlockLike | undefined = test.parent; block; block = block.parent) {
    if (block.parent === undefined && block.name === ROOT_BLOCK) break;
    if (leaveOut?.(block) !== true) titles.unshift(String(block.name));
  }
  return titles.join(' ');
}

/** The stable case id of a test: its suite and full name, shared by every retry. */
export function caseIdOf(suiteName: string | null, fullName: string): string {
  return suiteName === null ? fullName : `${suiteName}::${fullName}`;
}
