#include "runner_error.h"

namespace gemmscope::runner {

RunnerError::RunnerError(ErrorKind kind, const QString &message, const QString &log, QJsonObject extra)
    : std::runtime_error(message.toStdString()), m_kind(kind), m_message(message), m_log(log),
      m_extra(std::move(extra))
{
}

} // namespace gemmscope::runner
