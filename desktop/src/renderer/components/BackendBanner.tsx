import { useBackendState } from '../bridge/backend';
import { Icon } from './Icons';

/** Says so, at the top of the window, while the local service behind it is gone. */
export function BackendBanner() {
  const state = useBackendState();
  if (state === 'ready') return null;
  return (
    <div className="backend-banner" role="alert" data-testid="backend-lost">
      <Icon name="warning" size={16} />
      <span>
        {state === 'starting'
          ? 'The local service stopped and is restarting… What you type here is kept.'
          : 'The local service stopped. Restarting it — what you type here is kept and saved once it is back.'}
      </span>
    </div>
  );
}
