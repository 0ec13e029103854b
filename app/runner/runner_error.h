// The failure kinds of docs/protocol.md and the exception that carries one to the job boundary.
// Library code never exits: it throws RunnerError; RunnerService turns it into an `error` event.
#pragma once

#include "protocol.h"

#include <QJsonObject>
#include <QString>
#include <stdexcept>

namespace gemmscope::runner {

// The kinds are the protocol's (app/protocol/protocol.h), spelled there.
using ErrorKind = protocol::ErrorKind;

class RunnerError : public std::runtime_error {
public:
    // `message` is the sentence a user reads; `log` is optional detail (NVRTC log, CUDA call site).
    RunnerError(ErrorKind kind, const QString &message, const QString &log = {}, QJsonObject extra = {});

    ErrorKind kind() const { return m_kind; }
    QString message() const { return m_message; }
    QString log() const { return m_log; }
    // Kind-specific fields copied into the error event (e.g. rel_error and tolerance).
    const QJsonObject &extra() const { return m_extra; }

private:
    ErrorKind m_kind;
    QString m_message;
    QString m_log;
    QJsonObject m_extra;
};

} // namespace gemmscope::runner
