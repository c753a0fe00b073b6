package lab.responsetime.health;

import com.codahale.metrics.health.HealthCheck;
import lab.responsetime.core.dataset.Dataset;
import lab.responsetime.core.dataset.Datasets;
import lab.responsetime.core.dataset.ObjectKind;

/** Healthy when both datasets are resident; otherwise says what each is doing. */
public final class DatasetsHealthCheck extends HealthCheck {
    private final Datasets datasets;

    public DatasetsHealthCheck(Datasets datasets) {
        this.datasets = datasets;
    }

    @Override
    protected Result check() {
        StringBuilder message =
                new StringBuilder("seed " + datasets.seed() + ", size " + datasets.size());
        for (ObjectKind<?> kind : ObjectKind.ALL) {
            Dataset<?> dataset = datasets.get(kind);
            message.append("; ")
                    .append(kind)
                    .append(": ")
                    .append(dataset.state().name().toLowerCase())
                    .append(" (")
                    .append(dataset.status())
                    .append(')');
        }
        return datasets.allReady()
                ? Result.healthy(message.toString())
                : Result.unhealthy(message.toString());
    }
}
