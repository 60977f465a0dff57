// A throwaway PostgreSQL cluster (initdb + pg_ctl in a temporary folder) for the Postgres tests.
export * from './ThrowawayCluster';
export * from './clusterForTests';
