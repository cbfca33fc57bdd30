fn main() {
    hotpath::tokio_runtime!(lable = "api");
    hotpath::tokio_runtime!(&(), label = 5);
    hotpath::tokio_runtime!(label = "");
    hotpath::tokio_runtime!(&(), &());
    hotpath::tokio_runtime!(label = "api", &());
    hotpath::tokio_runtime!(&(), label = "a", label = "b");
}
