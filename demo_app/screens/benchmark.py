"""Benchmark: a short live measure of state save / restore / encryption latency."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from loadtests.live_bench import OPERATIONS, SIZES, percentile_rows, run_benchmark


def main() -> None:
    st.title("Save / restore / encrypt benchmark")
    st.caption(
        "Runs in this process against a temporary SQLite store with AES-256-GCM encryption. "
        "For the full benchmark (stages, baselines, PostgreSQL and Redis) use `loadtests bench`."
    )
    with st.form("bench"):
        sizes = st.multiselect(
            "State sizes", list(SIZES), default=["1 KB", "100 KB"], key="b-sizes"
        )
        repetitions = st.slider("Repetitions per size", 5, 200, 30, key="b-reps")
        run = st.form_submit_button("Run benchmark", type="primary")
    if run:
        if not sizes:
            st.error("Choose at least one state size.")
            return
        with st.spinner("Measuring…"):
            samples = run_benchmark(sizes, repetitions)
        st.session_state["bench_samples"] = samples
    samples = st.session_state.get("bench_samples")
    if not samples:
        st.info("Choose sizes and press Run benchmark.")
        return
    frame = pd.DataFrame(
        [{"size": s.size_label, "operation": s.operation, "µs": s.microseconds} for s in samples]
    )
    order = [label for label in SIZES if label in set(frame["size"])]
    st.subheader("Percentiles (microseconds)")
    st.dataframe(percentile_rows(samples), hide_index=True, use_container_width=True)
    st.subheader("Latency distribution")
    chart = (
        alt.Chart(frame)
        .mark_boxplot(extent="min-max")
        .encode(
            x=alt.X("size:N", sort=order, title="state size"),
            y=alt.Y("µs:Q", scale=alt.Scale(type="log"), title="microseconds (log)"),
            color=alt.Color("operation:N", sort=list(OPERATIONS)),
            xOffset=alt.XOffset("operation:N", sort=list(OPERATIONS)),
        )
    )
    st.altair_chart(chart, use_container_width=True)


main()
