// The tool surface contract (contract §25): coverage, fuzzing, lint.
export * from './coverage/SurfaceCoverage';
export * from './fuzz';
