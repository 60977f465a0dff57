// The tool surface contract (contract §25): coverage, fuzzing, lint.
export * from './coverage/SurfaceCoverage';
export { mergeSurfaceEvidence } from './coverage/mergeSurfaceEvidence';
export { collectRunSurfaceCoverage, surfaceEvidenceOfRecords } from './coverage/collectRunSurfaceCoverage';
export { checkSurfaceThresholds } from './coverage/checkSurfaceThresholds';
export { validateSurfaceThresholdConfig } from './coverage/validateSurfaceThresholdConfig';
export { surfaceEvidenceOfEvents, SurfaceEvidenceCollector } from './coverage/SurfaceEvidenceCollector';
export { toolDefinitionHash } from './coverage/toolDefinitionHash';
export * from './lint';
export * from './fuzz';
