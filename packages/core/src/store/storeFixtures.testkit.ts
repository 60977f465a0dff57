// Record builders for store tests: they ship with the store contract suite (contract/storeFixtures.ts).
export * from './contract/storeFixtures';
