export * from './Event';
export * from './EvidenceRef';
export * from './Observation';
export * from './TraceEntry';
export * from './payloads';
export * from './TraceResult';
export * from './TraceView';
