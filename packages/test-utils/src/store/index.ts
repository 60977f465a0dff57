// Store records and generated histories for tests of every store. The fixtures the store contract
// kit itself uses stay beside it in core (the contract kit ships; these do not).
export * from '../../../core/src/store/storeFixtures.testkit';
export * from './generatedHistory';
