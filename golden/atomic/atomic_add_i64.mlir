entry @atomic_add_i64(%arg0: tile<ptr<i64>>, %arg1: tile<ptr<i64>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i64>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xi64, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi64, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi64, strides=[1]>>, tile<i32> -> tile<128xi64>, token
  %9 = reshape %arg1 : tile<ptr<i64>> -> tile<1xptr<i64>>
  %10 = broadcast %9 : tile<1xptr<i64>> -> tile<128xptr<i64>>
  %11 = trunci %7 : tile<128xi64> -> tile<128xi32>
  %12 = constant <i32: 16> : tile<128xi32>
  %13 = remi %11, %12 signed : tile<128xi32>
  %14 = addi %13, %12 : tile<128xi32>
  %15 = remi %14, %12 signed : tile<128xi32>
  %16 = offset %10, %15 : tile<128xptr<i64>>, tile<128xi32> -> tile<128xptr<i64>>
  %17 = constant <i32: 128> : tile<i32>
  %18 = muli %1, %17 : tile<i32>
  %19 = reshape %18 : tile<i32> -> tile<1xi32>
  %20 = broadcast %19 : tile<1xi32> -> tile<128xi32>
  %21 = iota : tile<128xi32>
  %22 = addi %20, %21 : tile<128xi32>
  %23 = constant <i32: 1000> : tile<128xi32>
  %24 = cmpi less_than %22, %23, signed : tile<128xi32> -> tile<128xi1>
  %25, %26 = atomic_rmw_tko acq_rel device %16, add, %7, %24 token=%8 : tile<128xptr<i64>>, tile<128xi64>, tile<128xi1> -> tile<128xi64>, token
  return
}
