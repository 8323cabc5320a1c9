import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';

interface ChartCardProps {
  title: string;
  subtitle?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
  testId?: string;
}

/** A titled card holding a chart; the action (a toggle) wraps under the title on narrow screens. */
export function ChartCard({ title, subtitle, action, children, testId }: ChartCardProps) {
  const titleId = useId();
  return (
    <Card component="section" aria-labelledby={titleId} sx={{ height: '100%' }} data-testid={testId}>
      <CardContent sx={{ p: { xs: 2, sm: 2.5 }, '&:last-child': { pb: { xs: 2, sm: 2.5 } } }}>
        <Box
          sx={{
            display: 'flex',
            flexWrap: 'wrap',
            alignItems: 'flex-start',
            justifyContent: 'space-between',
            gap: 1.5,
            mb: 2,
          }}
        >
          <Box sx={{ minWidth: 0 }}>
            <Typography id={titleId} variant="h6" component="h2">
              {title}
            </Typography>
            {subtitle && (
              <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.25 }}>
                {subtitle}
              </Typography>
            )}
          </Box>
          {action}
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}

interface ChoiceToggleProps<T extends string> {
  value: T;
  options: readonly T[];
  labelOf: (option: T) => string;
  onChange: (value: T) => void;
  label: string;
  testId: string;
}

/** A small exclusive switch (metric, grouping, ranking); every option has `<testId>-<option>`. */
export function ChoiceToggle<T extends string>({
  value,
  options,
  labelOf,
  onChange,
  label,
  testId,
}: ChoiceToggleProps<T>) {
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={value}
      onChange={(_event, next: T | null) => next && onChange(next)}
      aria-label={label}
      data-testid={testId}
    >
      {options.map((option) => (
        <ToggleButton
          key={option}
          value={option}
          data-testid={`${testId}-${option}`}
          sx={{ px: 1.5, py: 0.5, fontWeight: 600, whiteSpace: 'nowrap' }}
        >
          {labelOf(option)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

/** One figure under a small label, for the rows of totals above a chart. */
export function ChartFigure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Box sx={{ minWidth: 0 }}>
      <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }} noWrap>
        {label}
      </Typography>
      <Typography
        variant="h6"
        component="p"
        data-testid={testId}
        sx={{ fontWeight: 700, fontVariantNumeric: 'tabular-nums', lineHeight: 1.3 }}
        noWrap
      >
        {value}
      </Typography>
    </Box>
  );
}
