// One gemmscope-runner process and the protocol's events it writes: the one place that starts a
// runner, reads its lines (linearly, each at most maxLineBytes long), watches it for silence and
// says, in the protocol's error kinds, how it ended. RunnerClient (GUI and sweeps), the bench's
// RunnerSession, the GUI's CompileJob and the runner's own profile child all go through it.
// A process it starts never outlives the thread that started it (PR_SET_PDEATHSIG on Linux): a
// killed client leaves no runner holding a GPU context behind.
//
// Lines are decoded as JSON objects and, once, as typed events (protocol::decodeEvent), and handed
// out together as eventReceived(), so that no client decodes an event again; a line that is not
// a JSON object is logged and skipped; a line longer than the cap kills the runner (protocol_error). The
// watchdog kills a runner that writes nothing for the time watchSilence() gave it (every output starts that
// time again) with the kind and sentence given there. When the runner ends, ended() says how:
//   killed by kill() or the watchdog   that kind and sentence
//   exit status 3                      device_fault (the sentence of its device_fault event)
//   could not start                    runner_unavailable
//   a signal, any other status         runner_crashed, with the last words it wrote on stderr
// What it wrote before it ended still counts, a last unterminated line included, unless it was
// killed. stop() and abandon() end it without ended(): the client asked for that end.
//
// Event-driven clients connect to the signals; a synchronous one (the bench) calls
// waitForOutput(), which emits the same signals from inside and fires the watchdog itself.
#pragma once

#include "events.h"
#include "line_buffer.h"
#include "protocol.h"
#include "runner_command.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QTimer>
#include <optional>

namespace gemmscope {

// A runner line as the transport decoded it, once: its typed event, or none (see eventReceived).
// A struct rather than a bare optional variant, so that Qt's meta-type machinery can hold it.
struct DecodedEvent {
    std::optional<protocol::Event> event;
    template <typename T> const T *get() const { return event ? std::get_if<T>(&*event) : nullptr; }
};

// How a runner ended.
struct RunnerEnd {
    protocol::ErrorKind kind = protocol::ErrorKind::RunnerCrashed;
    QString message;          // one sentence (or two) a user understands
    bool startFailed = false; // it never ran (kind runner_unavailable)
    bool killed = false;      // by kill() or the watchdog
    bool crashed = false;     // ended by a signal that kill() did not send
    int exitCode = 0;
};

class RunnerTransport : public QObject {
    Q_OBJECT
public:
    static constexpr int kDeviceFaultExitCode = 3;
    static constexpr qsizetype kMaxLineBytes = protocol::kMaxEventLineBytes;

    explicit RunnerTransport(QObject *parent = nullptr);
    ~RunnerTransport() override; // kills a runner still running

    void setMaxLineBytes(qsizetype bytes); // before start()
    qsizetype maxLineBytes() const { return m_lines.maxLineBytes(); }
    // The runner's stderr goes to this process's stderr (the bench) instead of being kept for
    // the end's sentence (the GUI). Before start().
    void setForwardStderr(bool forward) { m_forwardStderr = forward; }
    // Off: only error events are decoded (the transport reads their kind itself); the others come
    // as JSON alone, for a client that relays them unread (the runner's profile child).
    void setDecodeEvents(bool decode) { m_decodeEvents = decode; }

    // Starts the runner (a running one is killed first, without ended()). One that cannot start
    // ends with ended(runner_unavailable).
    void start(const RunnerCommand &command);
    bool isRunning() const;
    QString label() const { return m_label; }

    void send(const QJsonObject &object); // one protocol line; dropped when no runner runs
    void closeInput();                    // EOF: a runner answers what it has, then exits

    // Asks the runner to quit (quit request, EOF), waits up to graceMs, then kills it. Synchronous;
    // no ended() and no more events.
    void stop(int graceMs);
    // Kills the runner; ended() then carries this kind and sentence. The first kill wins.
    void kill(protocol::ErrorKind kind, const QString &message);
    // Kills a runner the client will not use (e.g. of another protocol version): no ended(), no
    // more events.
    void abandon();

    // Watchdog: a runner that writes nothing for `ms` is killed with this kind and sentence.
    void watchSilence(int ms, protocol::ErrorKind kind, const QString &message);
    void stopWatching();

    // For synchronous clients: blocks until the runner writes (its events are emitted from here),
    // ends (ended() is emitted from here), the watchdog's time is up (then it is killed and has
    // ended) or `maxWaitMs` passed (-1: no limit of its own), so that a client can look at its own
    // clocks and at cancel between waits. False when it has ended.
    bool waitForOutput(int maxWaitMs = -1);

signals:
    // `event`: the line decoded, empty for a type this GemmScope does not know (a newer runner's),
    // or for any but an error with setDecodeEvents(false). A field of another type reads as absent.
    void eventReceived(const QJsonObject &json, const gemmscope::DecodedEvent &decoded);
    void ended(const gemmscope::RunnerEnd &end);

private:
    void readOutput();
    void deliver(const QByteArray &line);
    void processFinished(int exitCode, QProcess::ExitStatus status);
    void processError(QProcess::ProcessError error);
    void watchdogFired();
    bool quiet() const { return m_killKind || m_abandoned || m_stopping; } // nothing it says counts
    void dropProcess();

    QPointer<QProcess> m_process;
    QString m_label;
    bool m_forwardStderr = false;
    bool m_decodeEvents = true;
    LineBuffer m_lines{kMaxLineBytes};
    QByteArray m_stderrTail;
    QString m_faultMessage; // the device_fault event's sentence, kept until the runner exits
    protocol::ErrorKind m_faultKind = protocol::ErrorKind::DeviceFault; // or kernel_timeout
    QTimer m_watchdog{this}; // a child: it follows the transport into a client's thread
    protocol::ErrorKind m_watchKind = protocol::ErrorKind::RunnerTimeout;
    QString m_watchMessage;
    std::optional<protocol::ErrorKind> m_killKind; // why the client killed the runner
    QString m_killMessage;
    bool m_abandoned = false;
    bool m_stopping = false;
};

} // namespace gemmscope

Q_DECLARE_METATYPE(gemmscope::RunnerEnd)
