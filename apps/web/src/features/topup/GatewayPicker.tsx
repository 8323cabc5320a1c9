import Box from '@mui/material/Box';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import type { UserPaymentView } from '@one-hub/contracts';

interface GatewayPickerProps {
  gateways: UserPaymentView[];
  value: string;
  onChange(uuid: string): void;
  label: string;
  /** The buttons' test ids are `<testIdPrefix>-<uuid>`. */
  testIdPrefix: string;
}

/** The payment gateways as a row of toggle buttons with their icons; one is always chosen. */
export function GatewayPicker({ gateways, value, onChange, label, testIdPrefix }: GatewayPickerProps) {
  return (
    <ToggleButtonGroup
      exclusive
      value={value}
      onChange={(_event, next: string | null) => next && onChange(next)}
      aria-label={label}
      sx={{ flexWrap: 'wrap' }}
    >
      {gateways.map((entry) => (
        <ToggleButton
          key={entry.uuid}
          value={entry.uuid}
          sx={{ gap: 1, px: 2 }}
          data-testid={`${testIdPrefix}-${entry.uuid}`}
        >
          {entry.icon && (
            <Box component="img" src={entry.icon} alt="" sx={{ width: 20, height: 20, objectFit: 'contain' }} />
          )}
          {entry.name}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
