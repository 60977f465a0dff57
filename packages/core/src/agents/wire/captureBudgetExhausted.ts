/**
 * Limitation (and diagnostic code) of a trace whose capture file ran out of its byte budget
 * (`ProxyBounds.captureBytes`, contract §5, §22): wire evidence past that point is thinned.
 */
export const CAPTURE_BUDGET_EXHAUSTED = 'capture_budget_exhausted';
