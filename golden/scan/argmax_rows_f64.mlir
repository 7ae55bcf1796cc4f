entry @argmax_rows_f64(%arg0: tile<ptr<f64>>, %arg1: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<f64>>
  %5 = make_tensor_view %4, shape = [64, 64], strides = [64, 1] : tensor_view<64x64xf64, strides=[64,1]>
  %6 = make_partition_view %5 : partition_view<tile=(16x64), padding_value = zero, tensor_view<64x64xf64, strides=[64,1]>>
  %7, %8 = load_view_tko weak %6[%1, %2] token = %0 : partition_view<tile=(16x64), padding_value = zero, tensor_view<64x64xf64, strides=[64,1]>>, tile<i32> -> tile<16x64xf64>, token
  %9 = iota : tile<64xi32>
  %10 = reshape %9 : tile<64xi32> -> tile<1x64xi32>
  %11 = broadcast %10 : tile<1x64xi32> -> tile<16x64xi32>
  %12, %13 = reduce %7, %11 dim=1 identities=[0xFFF0000000000000 : f64, 2147483647 : i32] : tile<16x64xf64>, tile<16x64xi32> -> tile<16xf64>, tile<16xi32> 
  (%14: tile<f64>, %15: tile<f64>, %16: tile<i32>, %17: tile<i32>) {
    %18 = cmpf greater_than ordered %14, %15 : tile<f64> -> tile<i1>
    %19 = cmpf equal ordered %14, %15 : tile<f64> -> tile<i1>
    %20 = cmpi less_than %16, %17, signed : tile<i32> -> tile<i1>
    %21 = andi %19, %20 : tile<i1>
    %22 = ori %18, %21 : tile<i1>
    %23 = select %22, %14, %15 : tile<i1>, tile<f64>
    %24 = select %22, %16, %17 : tile<i1>, tile<i32>
    yield %23, %24 : tile<f64>, tile<i32>
  }
  %25 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %26 = make_tensor_view %25, shape = [64], strides = [1] : tensor_view<64xi32, strides=[1]>
  %27 = make_partition_view %26 : partition_view<tile=(16), padding_value = zero, tensor_view<64xi32, strides=[1]>>
  %28 = store_view_tko weak %13, %27[%1] token = %8 : tile<16xi32>, partition_view<tile=(16), padding_value = zero, tensor_view<64xi32, strides=[1]>>, tile<i32> -> token
  return
}
