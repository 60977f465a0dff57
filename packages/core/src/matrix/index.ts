// Test matrices (contract §13): deterministic tool calls across servers and trials.
export { ToolCase, type ToolCaseOptions } from './ToolCase';
export { ServerCase, type ServerCaseOptions } from './ServerCase';
export {
  ToolMatrixCase,
  type MatrixKit,
  type MatrixCellOptions,
  type MatrixCellRunOptions,
  type MatrixCellSessionOptions,
  type ToolMatrixCaseFields,
} from './ToolMatrixCase';
export { ToolMatrix, type ToolMatrixOptions } from './ToolMatrix';
export { MATRIX_METADATA_PREFIX, type MatrixMetadata, type MatrixMetadataValue } from './matrixMetadata';
