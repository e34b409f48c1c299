import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { toast } from '@/components/toast';
import { errorMessage, isUnauthorized, serverErrorText } from '@/lib/api';
import { useSetWatermarkMutation, useWatermarkQuery } from './watermark-api';

/**
 * The creator's visible watermark (issue 18): when on, the photos others are served carry the
 * page name and a short code naming the viewer, so a leaked copy says who leaked it.
 */
export function WatermarkSetting() {
  const { data, isLoading, isError } = useWatermarkQuery();
  const [save, { isLoading: saving }] = useSetWatermarkMutation();

  const change = async (enabled: boolean) => {
    try {
      await save({ enabled }).unwrap();
      toast({
        title: enabled ? 'Watermark on' : 'Watermark off',
        description: enabled
          ? 'Your photos now show your page name and a code for each viewer.'
          : 'Your photos are shown without a watermark.',
      });
    } catch (error) {
      if (!isUnauthorized(error))
        toast({
          title: 'Could not change the watermark',
          description: serverErrorText(error) ?? errorMessage(error),
          variant: 'destructive',
        });
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby="watermark-title">
      <Typography variant="h6" component="h2" id="watermark-title">
        Watermark
      </Typography>
      {isError ? (
        <Alert severity="error" sx={{ mt: 1 }}>
          Could not load your watermark setting.
        </Alert>
      ) : isLoading || !data ? (
        <Skeleton width={240} height={44} />
      ) : (
        <FormControlLabel
          sx={{ minHeight: 44 }}
          control={
            <Switch checked={data.enabled} disabled={saving} onChange={(event) => void change(event.target.checked)} />
          }
          label="Watermark my photos"
        />
      )}
      <Typography variant="body2" color="textSecondary">
        Photos your subscribers see carry your page name and a short code that identifies the viewer, so a leaked copy
        can be traced to the account it was shown to. You always see your own photos without it; videos and blurred
        previews are not marked.
      </Typography>
    </Paper>
  );
}
