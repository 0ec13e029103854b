// The one selected run, shared by the table and every chart and diagram: each view sets it when
// the user picks a run and follows it when another view changes it.
#pragma once

#include <QObject>
#include <QString>

namespace gemmscope {

class RunSelection : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    QString runId() const { return m_runId; }

public slots:
    void select(const QString &runId)
    {
        if (runId == m_runId)
            return;
        m_runId = runId;
        emit selectionChanged(m_runId);
    }

signals:
    void selectionChanged(const QString &runId);

private:
    QString m_runId;
};

} // namespace gemmscope
