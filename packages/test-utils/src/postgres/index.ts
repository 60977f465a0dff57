// A throwaway PostgreSQL cluster (initdb + pg_ctl in a temporary folder) for the Postgres tests,
// one per Jest run when the run names a shared folder.
export * from './ThrowawayCluster';
export * from './clusterForTests';
export * from './runCluster';
