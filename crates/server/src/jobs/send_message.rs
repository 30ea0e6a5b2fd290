//! `send_message`: sends one message (its kind, its subject, one channel) to the subject's
//! recipient on that channel, through `services::messages`, which keeps it to once ever
//! and within the channel's daily cap. A subject with nothing to say any more, or a
//! recipient without that channel, ends the job; a recipient the channel can never reach
//! fails it for good at once; a provider's failure is retried with the same retry key.
//! Messages have a queue of their own ([`LIGHT`]), so race morning's photos never hold
//! them back.

use super::kinds::SendMessage;
use super::{BackgroundJob, JobContext, JobError};
use crate::services::alerts;
use crate::services::messages::{self, MessageKind, SendError};

impl BackgroundJob for SendMessage {
    async fn run(&self, ctx: &JobContext<'_>) -> Result<(), JobError> {
        self.send(ctx).await?;
        // An alert's next message waits for this one to be done with: sent, or nothing to
        // send ([`Self::gave_up`] for a failure for good).
        if self.kind == MessageKind::NewPhotos {
            alerts::watch::message_done(&ctx.state.alerting(), &self.subject)
                .await
                .map_err(JobError::Retry)?;
        }
        Ok(())
    }

    async fn gave_up(&self, ctx: &JobContext<'_>, error: &str) {
        if self.kind == MessageKind::NewPhotos
            && let Err(e) = alerts::watch::message_done(&ctx.state.alerting(), &self.subject).await
        {
            tracing::error!(error = %e, after = error, "cannot schedule an alert's next message");
        }
    }
}

impl SendMessage {
    async fn send(&self, ctx: &JobContext<'_>) -> Result<(), JobError> {
        let outbox = &ctx.state.outbox();
        let Some(composed) = messages::compose(outbox, self.kind, &self.subject)
            .await
            .map_err(job_error)?
        else {
            return Ok(());
        };
        let Some(to) = composed.to.get(&self.channel) else {
            return Ok(());
        };
        let outcome = messages::send_once(
            outbox,
            &self.key(),
            self.kind,
            self.channel,
            to,
            &composed.message,
        )
        .await
        .map_err(job_error)?;
        if outcome.was_sent() {
            messages::sent(outbox, self.kind, &self.subject, self.channel)
                .await
                .map_err(job_error)?;
        }
        Ok(())
    }
}

fn job_error(e: SendError) -> JobError {
    match e {
        SendError::Undeliverable(e) => JobError::Permanent(format!("{e:#}")),
        SendError::Failed(e) => JobError::Retry(e),
    }
}
