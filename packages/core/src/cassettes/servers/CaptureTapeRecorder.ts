import type { CaptureFrameRecord, CaptureRecord } from '../../proxy/CaptureFile';
import type { McpServerTape } from './McpServerTape';
import { isRequestMessage } from './mcpTapeMessages';
import { TapeExchangeRecorder } from './TapeExchangeRecorder';

/**
 * Records a capture proxy's frames on the server's tape (contract §24), as `TapeRecordingTransport`
 * does for the kit's own connections: each forwarded client request with the server's answer, and
 * what the server sent since its previous answer as what came before. Requests the tool policy
 * denied (answered by the proxy, not the server) are not recorded: the proxy denies them again on
 * replay. Frames cut by the capture bound cannot be recorded; `incomplete` counts them.
 */
export class CaptureTapeRecorder {
  private readonly exchanges: TapeExchangeRecorder;
  /** Frames too large to record (cut by the capture bound) or unreadable. */
  incomplete = 0;

  constructor(tape: McpServerTape) {
    this.exchanges = new TapeExchangeRecorder(tape);
  }

  /** Takes the records read since the last call, in file order. */
  add(records: readonly CaptureRecord[]): void {
    for (const record of records) {
      if (record.type !== 'frame' || record.origin === 'proxy') continue;
      if (record.format !== 'json' && record.format !== 'batch') continue;
      const messages = this.messagesOf(record);
      if (messages === null) continue;
      if (record.direction === 'client_to_server') this.fromClient(record, messages);
      else messages.forEach((m) => this.exchanges.fromServer(m));
    }
  }

  private messagesOf(record: CaptureFrameRecord): unknown[] | null {
    if (record.truncated) {
      this.incomplete += 1;
      return null;
    }
    try {
      const parsed = JSON.parse(record.raw) as unknown;
      return Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      this.incomplete += 1;
      return null;
    }
  }

  private fromClient(record: CaptureFrameRecord, messages: unknown[]): void {
    if (record.forwarded === false) return;
    messages.forEach((m, index) => {
      if (!isRequestMessage(m)) return;
      const denied = record.policy?.some(
        (p) => p.decision === 'denied' && (p.index === undefined || p.index === index) && p.id === m.id,
      );
      if (denied !== true) this.exchanges.fromClient(m);
    });
  }
}
