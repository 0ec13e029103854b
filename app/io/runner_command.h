// How a runner is started: a command template, one line a user writes, e.g.
//
//   gemmscope-runner                                  (local, the runner GemmScope finds)
//   CUDA_VISIBLE_DEVICES={gpu} {runner}               (one runner per GPU of this machine)
//   ssh {host} gemmscope-runner                       (a runner on another machine)
//   srun --gres=gpu:1 gemmscope-runner                (a runner on a Slurm cluster's GPU)
//
// Syntax (docs/sweeps.md): words separated by blanks; '...' keeps everything literally, "..." too
// except that \" and \\ are escapes; outside quotes a backslash escapes the next character. Leading
// words NAME=value set environment variables of the runner. {gpu}, {host}, {index} and {runner} are
// replaced inside a word *after* it is split, so a value can never add words. The command is
// started directly (QProcess, no shell): ; | & < > ` $ outside quotes are refused with a sentence,
// because a shell would have given them a meaning this does not. {host} must look like a host name
// ([user@]name, letters, digits, . - _ :), never like an option, and a host given to a template
// without {host} is refused (the runner would start on this machine). Note for ssh: the remote side hands
// the words after the host to the remote user's shell, as ssh always does.
#pragma once

#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>

namespace gemmscope {

struct RunnerCommand {
    QString program;
    QStringList arguments;
    QMap<QString, QString> environment; // added to the client's own environment
    QString host;                       // {host}'s value, or "" for this machine
    QString label;                      // the expanded template as a user reads it, for messages
    bool isEmpty() const { return program.isEmpty(); }
    friend bool operator==(const RunnerCommand &, const RunnerCommand &) = default;
};

struct RunnerTemplateValues {
    QString gpu;    // {gpu}
    QString host;   // {host}
    QString index;  // {index}: the runner's position in the pool, from 0
    QString runner; // {runner}: the local gemmscope-runner (runner_locator), when known
};

// The command of `templateText` with `values` filled in; std::nullopt with a sentence in `error`
// when the template cannot be read or names a placeholder without a value.
std::optional<RunnerCommand> parseRunnerTemplate(const QString &templateText,
                                                 const RunnerTemplateValues &values,
                                                 QString *error = nullptr);

// The most runners one sweep starts: each is a process (and, remotely, a connection) with its own
// thread here; templates x hosts x runners per host past this is refused with a sentence.
inline constexpr int kMaxRunnersPerSweep = 256;

// Why this pool of runners is not started (too many), or nothing.
std::optional<QString> runnerPoolProblem(qsizetype runners);

// The same template once per GPU: `count` commands with {gpu} = {index} = 0 .. count-1.
std::optional<QList<RunnerCommand>> runnerCommandsPerGpu(const QString &templateText, int count,
                                                         const QString &runnerPath, QString *error = nullptr);

} // namespace gemmscope
