import Box from '@mui/material/Box';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';

interface SwitchFieldProps {
  label: string;
  /** A line under the label; with it the switch is full size and lines up with the label's top. */
  description?: string;
  checked: boolean;
  onChange(checked: boolean): void;
  disabled: boolean;
  /** `data-testid` of the switch's input. */
  testId: string;
}

/** An on/off field of a dialog form: a switch with its label (and description) beside it. */
export function SwitchField({ label, description, checked, onChange, disabled, testId }: SwitchFieldProps) {
  return (
    <FormControlLabel
      sx={
        description === undefined
          ? { ml: 0, gap: 1, alignSelf: 'flex-start' }
          : { ml: 0, gap: 1.5, alignItems: 'flex-start' }
      }
      control={
        <Switch
          size={description === undefined ? 'small' : 'medium'}
          checked={checked}
          disabled={disabled}
          onChange={(_event, value) => onChange(value)}
          slotProps={{ input: { 'data-testid': testId } as object }}
        />
      }
      label={
        description === undefined ? (
          <Typography variant="body2">{label}</Typography>
        ) : (
          <Box sx={{ pt: 0.75 }}>
            <Typography variant="body2" sx={{ fontWeight: 600 }}>
              {label}
            </Typography>
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {description}
            </Typography>
          </Box>
        )
      }
    />
  );
}
