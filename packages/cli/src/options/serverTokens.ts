// The server-group flags of `m3 test` and their occurrences in command-line order. Apart from
// serverGroups.ts, which groups them with @sf-m3/core's help: `m3` declares every flag before it
// knows which command runs, and `m3 --version` or a usage error should not pay for loading core.

/** The flags that belong to server groups. */
export const SERVER_FIELD_FLAGS = ['url', 'header', 'bearer-env', 'trust', 'name', 'command', 'arg', 'env'] as const;

/** One server-group flag occurrence, in command-line order. */
export interface ServerToken {
  flag: 'server' | (typeof SERVER_FIELD_FLAGS)[number];
  value: string;
}
