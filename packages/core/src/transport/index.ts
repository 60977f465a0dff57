export { openTransport, type OpenedTransport, type OpenedProcess, type OpenTransportOptions } from './openTransport';
export { ObservedTransport, type ObservedTransportOptions } from './ObservedTransport';
export { ChildProcessHandle, type ProcessExit } from './ChildProcessHandle';
