/**
 * @sf-m3/core: everything sf-m3 does without Jest, as named lists grouped by concept. What is listed
 * here is public (packages/core/README.md, "What is public"); e2e/publicSurface.test.ts pins it, so
 * a new name is a reviewed change. Store authors import `@sf-m3/core/store`; our own packages import
 * what users must not touch from `@sf-m3/core/internal`. Importing this module performs no I/O, and
 * it is light: openai, pino, ajv, fast-check, the MCP SDK client and the agent drivers load on first
 * use (e2e/lightImport.test.ts).
 */

// JSON values
export type { JsonObject, JsonValue } from './json';

// errors: M3Error and its subclasses, each naming the problem and the fix
export { AuthenticationError, AuthenticationStep } from './errors/AuthenticationError';
export type { AuthenticationErrorDetails } from './errors/AuthenticationError';
export { CassetteMissError } from './errors/CassetteMissError';
export type { CassetteMissFacts } from './errors/CassetteMissError';
export {
  ClientNotReady,
  EndpointTrustError,
  ExecutionNotFound,
  KitClosed,
  M3Error,
  ModelValidationError,
  OperationCancelled,
  OperationTimeout,
  ProtocolError,
  ProtocolVersionError,
  RawEvidenceIntegrityError,
  RawEvidenceUnavailable,
  StoreError,
  StoreSchemaError,
  TraceNotFinalized,
  TraceUnavailable,
  TransportConnectionError,
  TransportError,
  TransportStartupError,
  UnsupportedFeature,
} from './errors/M3Error';
export { RequiredEvaluationError } from './errors/RequiredEvaluationError';

// enums: frozen const objects with their union types (contract §16)
export {
  ActivityHealth,
  AttemptOutcome,
  EvaluationStatus,
  ExecutionLifecycle,
  ExecutionOutcome,
  RuntimeKind,
  ToolCallStatus,
  TraceCompleteness,
  TransportKind,
  TrustLevel,
} from './enums';

// redaction and secrets (contract §22)
export { REDACTED, Redactor } from './redaction/Redactor';
export { secretFromEnv } from './redaction/SecretRef';
export type { SecretRef } from './redaction/SecretRef';
export { environmentCanaries, looksLikeCredential } from './redaction/credentialShape';

// logging (contract §15)
export type { LogLevel, M3Logger } from './logging/logger';

// traces: events, TraceResult, TraceView, observations, content blocks (contract §5)
export type {
  AudioContent,
  BlobResourceContents,
  ContentAnnotations,
  ContentBlock,
  ContentIcon,
  ContentRole,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
  TextContent,
  TextResourceContents,
} from './trace/ContentBlock';
export { EventKind } from './trace/Event';
export type { Event, EventDirection, EventOrigin, LifecyclePhase, TraceEvent } from './trace/Event';
export type { EvidenceRef, RawEvidence, RawEvidenceBlob } from './trace/EvidenceRef';
export { observation, ObservationState, observed, unavailable, unsupported } from './trace/Observation';
export type { Observation, ObservationReason } from './trace/Observation';
export type {
  AgentServerProtocol,
  CorrelationState,
  DiagnosticEntry,
  EntryBase,
  EntryKind,
  EntryStatus,
  EvaluationEntry,
  EvidenceConflict,
  InitializationEntry,
  InitializationValue,
  InteractionEntry,
  LifecycleEntry,
  MessageEntry,
  ProcessEntry,
  ProtocolEntry,
  ProtocolErrorValue,
  RawMessageEntry,
  ReasoningEntry,
  ReportedToolCall,
  StderrCapture,
  ToolCallEntry,
  ToolPolicyVerdict,
  ToolResultValue,
  TraceEntry,
  TraceRuntime,
  TraceSummary,
  TraceTiming,
  TraceViewData,
  TransportEntry,
  UsageEntry,
  UsageValue,
  WireToolCall,
} from './trace/TraceEntry';
export { TraceResult } from './trace/TraceResult';
export type { TraceResultData } from './trace/TraceResult';
export { TraceView } from './trace/TraceView';
export type { TurnSelector } from './trace/TraceView';
export type {
  DiagnosticPayload,
  ErrorResponsePayload,
  EvaluationRecordedPayload,
  ExecutionCreatedPayload,
  ExecutionFinishedPayload,
  ExecutionStateChangedPayload,
  InitializedPayload,
  MessagePayload,
  NotificationPayload,
  ProcessExitedPayload,
  ProcessStartedPayload,
  RawFramePayload,
  ReasoningPayload,
  RequestPayload,
  ResponsePayload,
  SessionCreatedPayload,
  TransportPayload,
  TurnCreatedPayload,
  TurnFinishedPayload,
  UsagePayload,
} from './trace/payloads';
export { readToolCall } from './trace/readToolCall';
export type { ToolCallReading, ToolCallSide } from './trace/readToolCall';

// server definitions and their trust rules (contract §2)
export { HTTPServer } from './servers/HTTPServer';
export type { HTTPServerOptions } from './servers/HTTPServer';
export { InProcessServer } from './servers/InProcessServer';
export type {
  InProcessServerContext,
  InProcessServerFactory,
  InProcessServerOptions,
  ModernSdkServer,
  SdkServer,
} from './servers/InProcessServer';
export type { ConfiguredValue, ServerDefinition, ServerDescription } from './servers/ServerDefinition';
export { StdioServer } from './servers/StdioServer';
export type { StdioServerOptions } from './servers/StdioServer';
export type { ProtocolRevision, ProtocolSetting } from './servers/protocolSetting';
export { commandLineCanaries } from './servers/redactCommandLine';

// HTTP authentication: bearer and OAuth (contract §17)
export type { BearerAuth, HttpAuth, OAuthAuth, ProviderAuth, TokenEndpointAuthMethod } from './auth/HttpAuth';

// the direct client and its results (contract §4)
export { DirectClient } from './client/DirectClient';
export type { DirectClientHost, ExecutionContext } from './client/DirectClientHost';
export type {
  CallToolOptions,
  DirectClientOptions,
  ElicitationCallback,
  LogMessageCallback,
  ProgressCallback,
  RootsCallback,
  SamplingCallback,
  ServerRequestContext,
} from './client/DirectClientOptions';
export type { ReceivedNotification } from './client/NotificationLog';
export type { SchemaValidationKind, SchemaViolation, ValidatableTool } from './client/ToolSchemaValidator';
export type { CloseReason, CloseRequest } from './client/closeOutcome';
export { listAll } from './client/listAll';
export type { Page } from './client/listAll';
export type { ListenOptions } from './client/listenOptions';
export type {
  ClientNotificationMessage,
  CompletionArgument,
  CompletionContext,
  CompletionReference,
  CompletionResult,
  DiscoverResult,
  GetPromptResult,
  InitializationResult,
  Prompt,
  PromptsPage,
  Resource,
  ResourceReadResult,
  ResourcesPage,
  ResourceTemplate,
  ResourceTemplatesPage,
  Tool,
  ToolsPage,
} from './client/results';

// executions and their handles (contract §6)
export { ExecutionHandle } from './execution/ExecutionHandle';
export type { ExecutionEventFeed, ExecutionHandleSource } from './execution/ExecutionHandle';
export type {
  ErrorInfo,
  ExecutionResult,
  ExecutionSnapshot,
  ToolCallResult,
  TurnResult,
} from './execution/ExecutionResult';

// evaluations and evaluators (contract §8)
export { EvaluationEngine } from './evaluation/EvaluationEngine';
export type { EvaluationContextSource, JudgeResponseOptions, RecordedCheck } from './evaluation/EvaluationEngine';
export type { EvaluationLabels, EvaluationMetrics, EvaluationResult } from './evaluation/EvaluationResult';
export type {
  EvaluateOptions,
  EvaluationContext,
  EvaluationDecision,
  EvaluatorCallback,
  EvaluatorVerdict,
} from './evaluation/EvaluatorCallback';
export type { NormalizedVerdict, VerdictCheck } from './evaluation/normalizeVerdict';
export { subjectDigest } from './evaluation/subjectDigest';

// LLM judges (contract §9)
export { JudgeErrorCode } from './judge/JudgeErrorCode';
export { LLMJudge } from './judge/LLMJudge';
export type { JudgeCallOptions, JudgeVerdict } from './judge/LLMJudge';
export type { JudgeBudget } from './judge/budget/JudgeBudget';
export type { JudgeAuth, JudgeConfig, JudgeResponseMode, LLMJudgeOptions } from './judge/judgeConfig';
export type { JudgeReply } from './judge/judgeReply';
export type { JudgeRequestBody, JudgeSubject } from './judge/judgeRequest';

// stores: the ExecutionStore interface, its records, the in-memory store (contract §10); store authors import @sf-m3/core/store
export type {
  AggregateValues,
  AggregationLabel,
  AggregationQuery,
  AggregationReport,
  TimeBucket,
} from './store/AggregationQuery';
export type { ExecutionListFilter, ExecutionStore, FinishedExecution, StoredEvaluation } from './store/ExecutionStore';
export { InMemoryExecutionStore } from './store/InMemoryExecutionStore';
export type { AggregationItem } from './store/aggregation/AggregationItem';
export type { AggregateCounts } from './store/aggregation/aggregateValues';
export type { EvaluationLineage } from './store/aggregation/lineage';
export type { LabelFilter } from './store/aggregation/validateAggregationQuery';
export type { PruneOptions, PruneReport, PruneSelection } from './store/prune';
export type {
  AttemptCounts,
  AttemptRecord,
  ExecutionRecord,
  RunProblem,
  RunRecord,
  RunStatus,
  ServerBindingRecord,
  SessionRecord,
  SuiteRecord,
  TurnRecord,
} from './store/records';
export type { RunProcess } from './store/runProcess';
export type { RunShardRecord } from './store/runShards';

// the kit a result or trace belongs to
export { kitOf } from './ownership/kitLink';

// the kit and its direct specs (contract §3)
export { CallTool, DirectSpec, GetPrompt, ListTools, Ping, ReadResource } from './kit/DirectSpec';
export type { DirectSpecOptions, SpecEvaluation } from './kit/DirectSpec';
export { MCPTestKit } from './kit/MCPTestKit';
export type { DirectExecutionOptions, MCPTestKitOptions } from './kit/kitOptions';

// the MCP capture proxy (contract §14)
export { CaptureFile } from './proxy/CaptureFile';
export type {
  CaptureDirection,
  CaptureEndRecord,
  CaptureExitRecord,
  CaptureFrame,
  CaptureFrameFormat,
  CaptureFrameRecord,
  CaptureMessageSummary,
  CapturePolicyDecision,
  CaptureRecord,
  CaptureSpawnErrorRecord,
  CaptureStartRecord,
} from './proxy/CaptureFile';
export { createProxyConfig, writeProxyConfig } from './proxy/ProxyConfig';
export type { CreateProxyConfigOptions, ProxyBounds, ProxyConfig, ProxyReplayEndpoint } from './proxy/ProxyConfig';
export { buildProxyCommand } from './proxy/buildProxyCommand';
export type { ProxyCommand } from './proxy/buildProxyCommand';
export type { ProxyToolPolicy, QualifiedToolName } from './proxy/toolPolicy';

// temporary files
export { makePrivateTempDir } from './tempfiles/privateTempDir';

// tool matrices (contract §13)
export { ServerCase } from './matrix/ServerCase';
export type { ServerCaseOptions } from './matrix/ServerCase';
export { ToolCase } from './matrix/ToolCase';
export type { ToolCaseOptions } from './matrix/ToolCase';
export { ToolMatrix } from './matrix/ToolMatrix';
export type { ToolMatrixOptions } from './matrix/ToolMatrix';
export { ToolMatrixCase } from './matrix/ToolMatrixCase';
export type {
  MatrixCellOptions,
  MatrixCellRunOptions,
  MatrixCellSessionOptions,
  MatrixKit,
  ToolMatrixCaseFields,
} from './matrix/ToolMatrixCase';
export type { MatrixMetadata, MatrixMetadataValue } from './matrix/matrixMetadata';

// agents and harnesses (contract §14, §18)
export { AgentSelection } from './agents/AgentSelection';
export type { AgentHarnessKind, AgentSelectionOptions, AgentSessionOptions } from './agents/AgentSelection';
export { AgentSession } from './agents/AgentSession';
export type { AgentIdentity } from './agents/AgentSession';
export { AgentSpec } from './agents/AgentSpec';
export type { AgentSpecOptions } from './agents/AgentSpec';
export type { AcpAgentSelectionSpec, AcpFileSystemHandlers, AcpManifest } from './agents/acp/acpOptions';
export type {
  AgentRunOptions,
  AgentSelectionSpec,
  OpenAIAgentSelectionSpec,
  OpenAIEndpoint,
  ResolvedRunOptions,
} from './agents/agentOptions';
export type { NativeAgentSelectionSpec, NativeHarnessKind } from './agents/native/nativeSelection';

// statistics (contract §21)
export { fisherExactTest } from './stats/fisherExactTest';
export type { PassCounts } from './stats/fisherExactTest';

// the tool surface: coverage, fuzzing, lint (contract §25)
export type {
  AdvertisedTool,
  CoverageCount,
  EnumValue,
  ExecutionSurfaceEvidence,
  RunSurfaceCoverage,
  ServerSurfaceCoverage,
  ServerSurfaceEvidence,
  SurfaceMeasure,
  SurfaceThreshold,
  SurfaceThresholdConfig,
  SurfaceThresholdMiss,
  ToolCoverageRow,
  ToolUse,
} from './surface/coverage/SurfaceCoverage';
export { SurfaceEvidenceCollector, surfaceEvidenceOfEvents } from './surface/coverage/SurfaceEvidenceCollector';
export { checkSurfaceThresholds } from './surface/coverage/checkSurfaceThresholds';
export { collectRunSurfaceCoverage, surfaceEvidenceOfRecords } from './surface/coverage/collectRunSurfaceCoverage';
export { mergeSurfaceEvidence } from './surface/coverage/mergeSurfaceEvidence';
export { toolDefinitionHash } from './surface/coverage/toolDefinitionHash';
export { validateSurfaceThresholdConfig } from './surface/coverage/validateSurfaceThresholdConfig';
export type { FuzzFailure, FuzzPhase } from './surface/fuzz/FuzzFailure';
export { fuzzTool, fuzzTools } from './surface/fuzz/fuzzTool';
export type { FuzzableTool, FuzzPhaseReport, FuzzToolOptions, FuzzToolReport } from './surface/fuzz/fuzzTool';
export type { ToolLintAllowance, ToolLintOptions } from './surface/lint/ToolLintOptions';
export type { ToolLintRule } from './surface/lint/ToolLintRule';
export type { ToolLintRuleName, ToolLintSpan, ToolLintViolation } from './surface/lint/ToolLintViolation';
export type { ToolListing } from './surface/lint/ToolListing';
export { lintTools } from './surface/lint/lintTools';
export type { ToolLintHistory, ToolLintReport } from './surface/lint/lintTools';
export { MODEL_DIRECTED_PATTERNS } from './surface/lint/modelDirectedPatterns';
export type { ModelDirectedPattern } from './surface/lint/modelDirectedPatterns';
export { toolLintRuleTable } from './surface/lint/toolLintRuleTable';

// cassettes (contract §24)
export type { CassetteBook, CassetteBookOptions, CassetteBookReport } from './cassettes/CassetteBook';
export type { CassetteRequest } from './cassettes/CassetteFormat';
export type { CassetteMode } from './cassettes/CassetteMode';
export type { CassetteScope } from './cassettes/CassetteScope';
export { openCassetteBook } from './cassettes/FileCassetteBook';
