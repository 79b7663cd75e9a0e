// Asking the browser for the microphone, and what its refusals mean to the kiosk. Kept apart from
// the voice detector so that the question is asked the moment a visit starts, before any of the
// detector's code has arrived: a blocked or missing microphone is known in milliseconds.

import { ServiceError } from '../../ports/service-error.ts';

/** The constraints the kiosk asks for: a voice, cleaned of the room and of the kiosk's own voice. */
export const MICROPHONE_CONSTRAINTS: MediaStreamConstraints = {
  audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
};

/** The browser's refusal, in the kiosk's words: denied, missing, or something else gone wrong. */
export function microphoneError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  const name = (error as { name?: string } | null)?.name ?? '';
  const message = (error as Error | null)?.message ?? String(error);
  if (name === 'NotAllowedError' || name === 'SecurityError') return new ServiceError('microphone', 'denied', message);
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'NotReadableError' || name === 'TypeError') {
    return new ServiceError('microphone', 'missing', `${name}: ${message}`);
  }
  return new ServiceError('microphone', 'malformed', `${name || 'Error'}: ${message}`);
}

/** Asks for the microphone; a refusal rejects with a ServiceError. */
export function askForMicrophone(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) {
    return Promise.reject(new ServiceError('microphone', 'missing', 'this browser has no getUserMedia (is the page served over https or from localhost?)'));
  }
  return navigator.mediaDevices.getUserMedia(MICROPHONE_CONSTRAINTS).catch((error: unknown) => {
    throw microphoneError(error);
  });
}

export const stopTracks = (stream: MediaStream) => stream.getTracks().forEach((track) => track.stop());
